// Extension plan-guard: a plan reply that has fallen into a loop is ended as soon as the loop shows, instead of
// running on to max_tokens. Small models at temperature 0 repeat one span ("Richard Nixon; Richard Nixon; …") until
// the token limit, and under a repeat penalty they misspell the end-of-queries marker so no stop sequence fires.

import { closeOpenQueryBlock } from './plan-stop.ts';

/** The choices of `HdsConfig.planGuard`. */
export const PLAN_GUARDS = ['off', 'loops'] as const;
export type PlanGuard = (typeof PLAN_GUARDS)[number];

/** What the guard found in a reply, and the reply it keeps. */
export interface PlanGuardCut {
  /** `repetition`: the reply's end is one span repeated; `misspelled-marker`: an open query block was ended by a near-miss of its marker. */
  rule: 'repetition' | 'misspelled-marker';
  /** The repeated span (turned to begin at a query, trimmed), or the misspelled marker. */
  text: string;
  /** The reply kept: through the first copy of the repeated span, or up to the misspelled marker; an open query block is closed with its end marker. */
  content: string;
}

/** A span repeated this many times in a row at the end of a reply is a loop… */
export const LOOP_MIN_COPIES = 8;
/** …when the repeats cover at least this many characters… */
export const LOOP_MIN_CHARS = 64;
/** …and the span is at most this long. */
export const LOOP_MAX_PERIOD = 200;

const WORD_CHAR = /[\p{L}\p{N}]/u;
// `<|end search queries>` / `<|end_search_queries>`: the bar before `>` missing, as seen under --repeat-penalty 1.1.
const MISSPELLED_END = /<\|end(?: search queries|_search_queries)>/i;

/** The period of the loop the reply ends in (the shortest span, repeated), or 0 when it does not end in one. */
export function loopPeriod(text: string): number {
  const n = text.length;
  for (let p = 1; p <= LOOP_MAX_PERIOD; p++) {
    const span = Math.max(p * LOOP_MIN_COPIES, LOOP_MIN_CHARS);
    if (span > n) break;
    let periodic = true;
    for (let i = n - 1; i >= n - span + p; i--) {
      if (text.charCodeAt(i) !== text.charCodeAt(i - p)) {
        periodic = false;
        break;
      }
    }
    // A run of spaces, dashes or newlines is layout, not a loop.
    if (periodic && WORD_CHAR.test(text.slice(n - p))) return p;
  }
  return 0;
}

/**
 * Checks a plan reply as it streams (call it with the whole reply so far). Returns the cut when the reply ends in a
 * loop (a span of at most {@link LOOP_MAX_PERIOD} characters repeated {@link LOOP_MIN_COPIES} times or more, over at
 * least {@link LOOP_MIN_CHARS} characters, with a letter or digit in it), or when an open query block meets a
 * misspelled end marker; otherwise undefined.
 */
export function findPlanLoop(reply: string): PlanGuardCut | undefined {
  const misspelled = MISSPELLED_END.exec(reply);
  if (misspelled) {
    const closed = closeOpenQueryBlock(reply.slice(0, misspelled.index)); // only a block left open is ended there
    if (closed.restored) return { rule: 'misspelled-marker', text: misspelled[0], content: closed.content };
  }
  const p = loopPeriod(reply);
  if (p === 0) return undefined;
  let start = reply.length - p; // walk back to where the repetition began
  while (start > 0 && reply.charCodeAt(start - 1) === reply.charCodeAt(start - 1 + p)) start--;
  // Keep the first copy, on to the end of the query it ends inside ("…burial ground|s; burial…" keeps "grounds").
  let end = start + p;
  const separator = /[\s;,]/.test(reply[end - 1]!) ? -1 : reply.slice(end, end + p).search(/[;\n]/);
  if (separator >= 0) end += separator;
  const kept = reply.slice(0, end).replace(/[\s;,]+$/u, '');
  return { rule: 'repetition', text: readableSpan(reply.slice(start, start + p)), content: closeOpenQueryBlock(kept).content };
}

/** The repeated span turned to begin at a query ("; Edmund Carrow" → "Edmund Carrow"), trimmed. */
function readableSpan(span: string): string {
  const at = /[;\n][\s;]*/.exec(span);
  const turned = at ? span.slice(at.index + at[0].length) + span.slice(0, at.index + at[0].length) : span;
  return turned.replace(/^[\s;,]+|[\s;,]+$/gu, '');
}
