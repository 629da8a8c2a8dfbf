/** What the model asked for in one HDS turn. */
export type HdsAction =
  // unmarked: no marker at all (H4); unrunQueries: the queries of a block in a final-prompt reply, cut from its answer
  | { kind: 'answer'; text: string; unmarked?: boolean; unrunQueries?: string[] }
  | { kind: 'queries'; queries: string[] };

/** Which spelling of the query tokens the model used: `<|begin search queries|>` or `<|begin_search_queries|>` (H1). */
export type HdsTokenSpelling = 'spaces' | 'underscores';

/** Which marker decided the action. */
export type HdsActionMarker = 'boxed' | 'answer-tag' | 'query-block' | 'none';

/** A parsed response with everything the loop and the timeline need besides the action. */
export interface HdsParsedResponse {
  /** What the model asked for. */
  action: HdsAction;
  /** The marker that decided the action (`none`: neither an answer marker nor a query block, H4). */
  marker: HdsActionMarker;
  /** The response with reasoning removed (untrimmed); actions are read only from it (H2). */
  visibleText: string;
  /** Text found inside `<think>…</think>` (H2), trimmed segments joined by a blank line; '' when none. */
  reasoning: string;
  /** Spelling of the query block's opening token, when a block was found. */
  tokenSpelling?: HdsTokenSpelling;
  /** True when the query block had no closing token (e.g. the server stopped at it): the rest of the text was read. */
  unterminatedQueryBlock?: boolean;
  /** True when the answer is the text after a `\boxed{` that was never closed (a reply cut by max_tokens). */
  unterminatedAnswer?: boolean;
  /** True when the queries came from a list under a "Search queries:" heading, without the block tokens. */
  headingList?: boolean;
  /** True when an unclosed `<think>` was ended at the query block (`think-closes-at-query-block`). */
  thinkClosedAtBlock?: boolean;
  /** True when an opening "Reasoning: …" line was read as reasoning (`reasoning-line`). */
  reasoningLine?: boolean;
  /** Distinct queries the model wrote beyond `maxQueries`, in order (not executed). */
  queriesOverCap: string[];
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const BEGIN_QUERIES = /<\|begin(?: search queries|_search_queries)\|>/i;
const END_QUERIES = /<\|end(?: search queries|_search_queries)\|>/i;
const BEGIN_RESULTS = /<\|begin(?: search results|_search_results)\|>/i;
const ANSWER_TAG = /<answer>\s*([\s\S]*?)\s*<\/answer>/i;
const QUERY_SEPARATORS = /[;\n]+/;
// The prompt's own `\boxed{...}`, echoed back by small models: a placeholder, not an answer.
const PLACEHOLDER_ANSWER = /^[.\s\u2026]*$/;
// The prompt's own "between <|begin search queries|> and <|end search queries|>" echoed: a block holding only "and".
const ECHOED_INSTRUCTION_BLOCK = /^\s*and\s*$/i;
// A heading that names the search queries, alone on its line: "Search queries:", "**Queries:**", "### Search queries".
const QUERY_HEADING = /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*(?:(?:parallel|new|next|my)[ \t]+)?(?:search(?:[ \t]+queries|[ \t]+query|es)|queries)[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*$/im;
// A list item: a bullet or a number, then text.
const LIST_ITEM = /^[ \t]*(?:[-*•]|\d+[.)])[ \t]+\S/;
// One list prefix: bullet, `1.`/`1)`, `query 3:`, or a single letter + `.`/`)` (the reference, docs/decisions.md#hds-reference step 4).
const LIST_PREFIX = /^\s*(?:[-*•]|\d+[.)]|query\s*\d*\s*:|[a-z][.)])\s*/i;

/**
 * Splits reasoning from the rest (H2): every `<think>…</think>` span (case-insensitive) is reasoning; an unclosed
 * `<think>` makes the rest reasoning; a `</think>` with no opener before it makes everything before it reasoning
 * (servers whose chat template opens the reasoning block themselves). An unclosed `<think>` followed by a query block
 * ends at that block (`think-closes-at-query-block`).
 */
export function splitReasoning(text: string): { visibleText: string; reasoning: string; thinkClosedAtBlock?: boolean } {
  const lower = text.toLowerCase();
  let thinkClosedAtBlock = false;
  const reasoning: string[] = [];
  const visible: string[] = [];
  let pos = 0;
  const firstClose = lower.indexOf(THINK_CLOSE);
  const firstOpen = lower.indexOf(THINK_OPEN);
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    reasoning.push(text.slice(0, firstClose));
    pos = firstClose + THINK_CLOSE.length;
  }
  while (pos <= text.length) {
    const open = lower.indexOf(THINK_OPEN, pos);
    if (open < 0) {
      visible.push(text.slice(pos));
      break;
    }
    visible.push(text.slice(pos, open));
    const start = open + THINK_OPEN.length;
    const close = lower.indexOf(THINK_CLOSE, start);
    if (close < 0) {
      // Extension think-closes-at-query-block: reasoning never closed ends where a query block begins (as the HDS
      // authors' inference code closes it), so a block written inside an open `<think>` still runs.
      const block = BEGIN_QUERIES.exec(text.slice(start));
      if (block) {
        reasoning.push(text.slice(start, start + block.index));
        visible.push(text.slice(start + block.index));
        thinkClosedAtBlock = true;
      } else {
        reasoning.push(text.slice(start));
      }
      break;
    }
    reasoning.push(text.slice(start, close));
    pos = close + THINK_CLOSE.length;
  }
  return {
    // The text outside reasoning is the plain concatenation: a separator here would split a query (H2).
    visibleText: visible.join(''),
    reasoning: reasoning
      .map((r) => r.trim())
      .filter((r) => r !== '')
      .join('\n\n'),
    ...(thinkClosedAtBlock ? { thinkClosedAtBlock } : {}),
  };
}

/** Index just past the `}` that closes the `{` at `open`, or -1; `\x` escapes skip the next character. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Removes a `\text{…}` that wraps the whole answer (H3). */
function unwrapText(answer: string): string {
  const m = /^\\text\s*\{/.exec(answer);
  if (!m) return answer;
  const open = m[0].length - 1;
  return matchingBrace(answer, open) === answer.length ? answer.slice(open + 1, -1).trim() : answer;
}

/**
 * The content of the last complete `\boxed{…}` (balanced braces, whitespace allowed before `{`), trimmed and with a
 * whole-answer `\text{…}` removed (H3); undefined when there is none.
 */
export function extractBoxed(text: string): string | undefined {
  let found: string | undefined;
  let from = 0;
  for (;;) {
    const at = text.indexOf('\\boxed', from);
    if (at < 0) break;
    from = at + '\\boxed'.length;
    let open = from;
    while (open < text.length && /\s/.test(text[open])) open++;
    if (text[open] !== '{') continue;
    const end = matchingBrace(text, open);
    if (end < 0) continue;
    found = text.slice(open + 1, end - 1);
  }
  return found === undefined ? undefined : unwrapText(found.trim());
}

/** The text after the last `\boxed{` when that brace is never closed (a reply cut short), trimmed; '' when none. */
function unclosedBoxed(text: string): string {
  const m = /\\boxed\s*\{(?![\s\S]*\\boxed)/.exec(text);
  if (!m || matchingBrace(text, m.index + m[0].length - 1) >= 0) return '';
  return unwrapText(text.slice(m.index + m[0].length).trim());
}

/** Splits a query source into cleaned, distinct queries (the reference, docs/decisions.md#hds-reference step 4), capped at `maxQueries`. */
function splitQueries(source: string, maxQueries: number): { kept: string[]; overCap: string[] } {
  const kept: string[] = [];
  const overCap: string[] = [];
  for (const piece of source.split(QUERY_SEPARATORS)) {
    const query = piece.replace(LIST_PREFIX, '').trim();
    if (query === '' || kept.includes(query) || overCap.includes(query)) continue;
    if (kept.length < maxQueries) kept.push(query);
    else overCap.push(query);
  }
  return { kept, overCap };
}

/**
 * Parses one model response. Priority: last `\boxed{…}` (H3), then the first `<answer>…</answer>`, then the first
 * query block in either token spelling (H1), all read outside reasoning (H2). A block without usable queries gives an
 * answer equal to the whole visible text (reference); a response with no marker at all is an `unmarked` answer (H4).
 * A boxed answer of only dots (`\boxed{...}`, the prompt's placeholder echoed) is empty, like `\boxed{}`, so the
 * loop asks the final prompt (the reference, docs/decisions.md#hds-reference) — unless the same response has a query block with real queries, which
 * then decides (small models echo the prompt's action (b) after writing their queries). A block holding only "and"
 * is the prompt's "between <|begin search queries|> and <|end search queries|>" echoed: no query, an empty answer.
 * Without any marker, a list under a "Search queries:" heading is read as a query block (`heading-list-query-block`,
 * flagged `headingList`); any other text is an `unmarked` answer (H4).
 */
export function parseHdsResponse(text: string, maxQueries: number): HdsParsedResponse {
  const split = splitReasoning(text);
  const line = leadingReasoningLine(split.visibleText);
  const visibleText = line ? split.visibleText.slice(line.end) : split.visibleText;
  const reasoning = line ? [split.reasoning, line.text].filter((r) => r !== '').join('\n\n') : split.reasoning;
  const base = { visibleText, reasoning, queriesOverCap: [] as string[], ...(split.thinkClosedAtBlock ? { thinkClosedAtBlock: true } : {}), ...(line ? { reasoningLine: true } : {}) };
  const placeholderAnswer: HdsParsedResponse = { ...base, action: { kind: 'answer', text: '' }, marker: 'boxed' };

  const boxed = extractBoxed(visibleText);
  const empty = boxed !== undefined && PLACEHOLDER_ANSWER.test(boxed);
  if (boxed !== undefined && !empty) return { ...base, action: { kind: 'answer', text: boxed }, marker: 'boxed' };
  // `\boxed{}` is an empty answer (reference); the echoed `\boxed{...}` gives way to real queries in the same response.
  const placeholder = empty && boxed !== '';
  const block = parseQueryBlock(visibleText, maxQueries);
  if (empty && !(placeholder && block && !block.echoedInstruction && block.kept.length > 0)) return placeholderAnswer;

  const tag = ANSWER_TAG.exec(visibleText);
  if (!empty && tag) return { ...base, action: { kind: 'answer', text: tag[1].trim() }, marker: 'answer-tag' };

  if (!block) {
    const open = unclosedBoxed(visibleText);
    if (open) return { ...base, action: { kind: 'answer', text: open }, marker: 'boxed', unterminatedAnswer: true };
    // Extension heading-list-query-block: "Search queries:" then "- query" lines is a query block without its tokens.
    const list = parseHeadingList(visibleText, maxQueries);
    if (list) return { ...base, action: { kind: 'queries', queries: list.kept }, queriesOverCap: list.overCap, marker: 'query-block', headingList: true };
    return { ...base, action: { kind: 'answer', text: visibleText.trim(), unmarked: true }, marker: 'none' };
  }
  const { kept, overCap, tokenSpelling, unterminated, echoedInstruction } = block;
  // The prompt's instruction echoed is no query and no answer: the loop goes on to the final prompt, as for `\boxed{...}`.
  const noQueries = echoedInstruction ? { kind: 'answer' as const, text: '' } : { kind: 'answer' as const, text: visibleText.trim() };
  const parsed: HdsParsedResponse = {
    ...base,
    queriesOverCap: echoedInstruction ? [] : overCap,
    marker: 'query-block',
    tokenSpelling,
    action: kept.length > 0 && !echoedInstruction ? { kind: 'queries', queries: kept } : noQueries,
  };
  if (unterminated) parsed.unterminatedQueryBlock = true;
  return parsed;
}

/**
 * A reply's opening "Reasoning: …" line (extension `reasoning-line`, the line the dsw-1 plan prompt asks for): up to
 * the first line break, query block, `\\boxed` or `<answer>`, whichever comes first; its text without the label.
 * It is reasoning (H2), never an answer.
 */
function leadingReasoningLine(visibleText: string): { end: number; text: string } | undefined {
  const m = /^\s*reasoning\s*:/i.exec(visibleText);
  if (!m) return undefined;
  const rest = visibleText.slice(m[0].length);
  const stops = [rest.indexOf('\n'), rest.search(BEGIN_QUERIES), rest.indexOf('\\boxed'), rest.search(/<answer>/i)].filter((i) => i >= 0);
  const cut = stops.length > 0 ? Math.min(...stops) : rest.length;
  return { end: m[0].length + cut, text: rest.slice(0, cut).trim() };
}

/** The first query block (either spelling, H1), its queries split and capped; undefined when there is none. */
function parseQueryBlock(visibleText: string, maxQueries: number) {
  const begin = BEGIN_QUERIES.exec(visibleText);
  if (!begin) return undefined;
  const tokenSpelling: HdsTokenSpelling = begin[0].includes('_') ? 'underscores' : 'spaces';
  const afterBegin = visibleText.slice(begin.index + begin[0].length);
  const end = END_QUERIES.exec(afterBegin);
  let source: string;
  let unterminated = false;
  if (end) {
    source = afterBegin.slice(0, end.index);
  } else {
    unterminated = true;
    const results = BEGIN_RESULTS.exec(afterBegin);
    source = results ? afterBegin.slice(0, results.index) : afterBegin;
  }
  return { ...splitQueries(source, maxQueries), tokenSpelling, unterminated, echoedInstruction: ECHOED_INSTRUCTION_BLOCK.test(source) };
}

/**
 * The queries of a list under a heading naming them (extension `heading-list-query-block`): the first line that is
 * only "Search queries:" (or "Queries:", "**Search queries:**", "### Search queries", …), then the list items right
 * after it (blank lines between items allowed), up to the first other line. Undefined when there is no such heading
 * or no item with text after it.
 */
function parseHeadingList(visibleText: string, maxQueries: number): { kept: string[]; overCap: string[] } | undefined {
  const heading = QUERY_HEADING.exec(visibleText);
  if (!heading) return undefined;
  const items: string[] = [];
  for (const line of visibleText.slice(heading.index + heading[0].length).split('\n')) {
    if (line.trim() === '') continue;
    if (!LIST_ITEM.test(line)) break;
    items.push(line);
  }
  // The items' own text only: a list prefix is removed by splitQueries; quotes or bold around a query are not the query.
  const source = items.map((l) => l.replace(LIST_PREFIX, '').replace(/^(?:\*\*|["'`“])+|(?:\*\*|["'`”])+$/g, '')).join('\n');
  const split = splitQueries(source, maxQueries);
  return split.kept.length > 0 ? split : undefined;
}

/**
 * The reply up to and including the end token of its first query block, when text follows that block and the reply
 * has no reasoning tags (extension `log-cut-after-query-block`); undefined otherwise. Only that block is acted on, so
 * the interaction log keeps only it: a small model that repeats its block until max_tokens would otherwise be shown
 * the repetition in every later prompt (and repeat it again). The turn record keeps the whole reply.
 */
export function throughFirstQueryBlock(text: string): string | undefined {
  if (/<\/?think>/i.test(text)) return undefined;
  const begin = BEGIN_QUERIES.exec(text);
  if (!begin) return undefined;
  const from = begin.index + begin[0].length;
  const end = END_QUERIES.exec(text.slice(from));
  if (!end) return undefined;
  const cut = from + end.index + end[0].length;
  return text.slice(cut).trim() === '' ? undefined : text.slice(0, cut);
}

/** The action of one model response (see `parseHdsResponse`). */
export function parseHdsAction(text: string, maxQueries: number): HdsAction {
  return parseHdsResponse(text, maxQueries).action;
}

/**
 * A raw answer with reasoning removed (H2): when the text contains reasoning, the rest trimmed; otherwise the text
 * exactly as received (the reference returns fallback answers unparsed and untrimmed).
 */
export function answerOutsideReasoning(raw: string): string {
  const { visibleText } = splitReasoning(raw);
  return /<\/?think>/i.test(raw) ? visibleText.trim() : raw;
}

/** The answer of the final prompt (H8): the same markers as a plan turn, else the trimmed text, flagged `unmarked`. */
export interface FinalAnswer {
  action: Extract<HdsAction, { kind: 'answer' }>;
  marker: Exclude<HdsActionMarker, 'query-block'>;
  reasoning: string;
}

/**
 * Reads the final prompt's reply (H8): last `\boxed{…}`, then `<answer>…</answer>`, outside reasoning (H2, H3);
 * a reply with neither is its visible text, trimmed, flagged `unmarked`. A query block in such a reply cannot run (no
 * turn is left), so it is not part of the answer (extension `final-answer-without-query-block`): the answer is the
 * text before the block (when there is none, the text between the block's end and any next block), and the block's
 * queries are kept on the action as `unrunQueries`.
 */
export function extractFinalAnswer(text: string): FinalAnswer {
  const parsed = parseHdsResponse(text, 0);
  if (parsed.action.kind === 'answer' && (parsed.marker === 'boxed' || parsed.marker === 'answer-tag')) {
    return { action: parsed.action, marker: parsed.marker, reasoning: parsed.reasoning };
  }
  const cut = withoutQueryBlock(parsed.visibleText);
  return {
    action: cut
      ? { kind: 'answer', text: cut.answer, unmarked: true, unrunQueries: cut.queries }
      : { kind: 'answer', text: parsed.visibleText.trim(), unmarked: true },
    marker: 'none',
    reasoning: parsed.reasoning,
  };
}

/** The text around the first query block, without it, and that block's queries; undefined without a block. */
function withoutQueryBlock(visibleText: string): { answer: string; queries: string[] } | undefined {
  const begin = BEGIN_QUERIES.exec(visibleText);
  const block = parseQueryBlock(visibleText, Number.MAX_SAFE_INTEGER);
  if (!begin || !block) return undefined;
  const queries = block.echoedInstruction ? [] : block.kept;
  const before = visibleText.slice(0, begin.index).trim();
  if (before !== '') return { answer: before, queries };
  const afterBegin = visibleText.slice(begin.index + begin[0].length);
  const end = END_QUERIES.exec(afterBegin);
  if (!end) return { answer: '', queries };
  const after = afterBegin.slice(end.index + end[0].length);
  const next = BEGIN_QUERIES.exec(after);
  return { answer: (next ? after.slice(0, next.index) : after).trim(), queries };
}
