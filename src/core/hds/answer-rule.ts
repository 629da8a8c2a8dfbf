// H12: one answer rule for every compared method, so that a score says how right an answer is, not how it was worded.
import { normalizeAnswer } from '../eval/index.ts';
import { splitReasoning } from './parse-action.ts';

/** The answer a score is computed on, and where it came from. */
export interface ScoredAnswer {
  /** The text scored. */
  text: string;
  /**
   * `marked`: the model's own `\boxed{}` / `<answer>` answer (H3); `extracted`: a short span taken from an unmarked
   * reply by {@link extractShortSpan}; `empty`: no answer at all.
   */
  source: 'marked' | 'extracted' | 'empty';
  /** Identifies the extraction rule, so a score can be traced to it. */
  rule: typeof SHORT_SPAN_RULE;
}

/** The id of the extraction rule below; a change of the rule gets a new id. */
export const SHORT_SPAN_RULE = 'short-span-1';

const BLOCK = /<\|begin(?: search (?:queries|results)|_search_(?:queries|results))\|>[\s\S]*?(?:<\|end(?: search (?:queries|results)|_search_(?:queries|results))\|>|$)/gi;
const LABEL = /^\s*(?:#+\s*)?(?:final answer|answer|short answer)\s*:\s*/i;
const CUE = /\b(?:the\s+)?(?:final\s+)?answer\s+(?:is|was)\s*:?\s+([\s\S]+)/i;
const COPULA = /\s(?:is|was|are|were)\s/gi;
// Where an answer span stops: a relative or explanatory clause after it.
const CLAUSE = /,\s*(?:which|who|whom|whose|where|while|when|and|but|as|because|since|so)\b|\s+(?:because|since|which|who)\s|;|\s\(|\s[-–—]\s/i;
const STOPWORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'and', 'or', 'is', 'was', 'are', 'were', 'be', 'it', 'its', 'that', 'this', 'as', 'with', 'from', 's']);
const SHORT_WORDS = 6;

/**
 * A short answer span from an unmarked reply (rule `short-span-1`), deterministic:
 * 1. Reasoning (H2), query and results blocks, Markdown emphasis and a leading "Answer:" label are removed.
 * 2. Only the first sentence counts (up to `.`, `!` or `?` before a capital, a line break or `;`): in it, "the
 *    answer is X" gives X.
 * 3. A reply, or else a first sentence, of at most six words is the answer as it is (surrounding quotes and final
 *    punctuation removed).
 * 4. (Longer sentences.)
 * 5. Else the text after the sentence's last "is / was / are / were" (the usual "<the question restated> is X."
 *    form), up to a following clause (", which …", " (", ";" …).
 * 6. Else the longest run of words not in the question (a single question word between two new words stays in, so
 *    "World War II" survives a question about "which war").
 * 7. Else the first sentence.
 */
export function extractShortSpan(reply: string, question: string): string {
  const text = splitReasoning(reply)
    .visibleText.replace(BLOCK, ' ')
    .replace(/\*\*|__|`/g, '')
    .replace(LABEL, '')
    .trim();
  if (text === '') return '';
  const sentence = firstSentence(text);
  const cue = CUE.exec(sentence);
  if (cue) return tidy(untilClause(cue[1]!));
  if (words(text).length <= SHORT_WORDS) return tidy(text);
  if (words(sentence).length <= SHORT_WORDS) return tidy(sentence);
  const known = new Set(normalizeAnswer(question).split(' ').filter(Boolean));
  const afterCopula = lastCopulaSpan(sentence);
  if (afterCopula) return afterCopula;
  return novelSpan(sentence, known) ?? tidy(sentence);
}

/** The answer a score is computed on (H12): the marked answer when there is one, else the span extracted from it. */
export function scoredAnswer(answer: string, marked: boolean, question: string): ScoredAnswer {
  if (marked) return { text: answer, source: answer.trim() === '' ? 'empty' : 'marked', rule: SHORT_SPAN_RULE };
  const text = extractShortSpan(answer, question);
  return { text, source: text === '' ? 'empty' : 'extracted', rule: SHORT_SPAN_RULE };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

function firstSentence(text: string): string {
  const line = text.split(/\n|;/).map((l) => l.trim()).find((l) => l !== '') ?? text;
  // A stop that ends a sentence: not after a single capital (an initial, "Henry J. Kaiser") and before a capital.
  const m = /(?<![\s.][A-Z])[.!?](?=\s+["“'A-Z])/.exec(line);
  return m ? line.slice(0, m.index + 1) : line;
}

function untilClause(text: string): string {
  const m = CLAUSE.exec(text);
  return m ? text.slice(0, m.index) : text;
}

/** Quotes, brackets and final punctuation around the answer removed. */
function tidy(text: string): string {
  return text
    .trim()
    .replace(/[.!?,:;]+$/, '')
    .replace(/^["“'(\[]+|["”')\]]+$/g, '')
    .trim();
}

function isNew(word: string, known: ReadonlySet<string>): boolean {
  const n = normalizeAnswer(word);
  return n !== '' && !known.has(n) && !STOPWORDS.has(n);
}

function lastCopulaSpan(sentence: string): string | undefined {
  let last: RegExpMatchArray | undefined;
  for (const m of sentence.matchAll(COPULA)) last = m;
  if (!last) return undefined;
  const span = tidy(untilClause(sentence.slice(last.index! + last[0].length)));
  return span === '' ? undefined : span;
}

function novelSpan(sentence: string, known: ReadonlySet<string>): string | undefined {
  const ws = words(sentence);
  const fresh = ws.map((w) => isNew(w, known));
  let best: [number, number] | undefined;
  for (let i = 0; i < ws.length; i++) {
    if (!fresh[i]) continue;
    let j = i;
    // extend over new words, and over one old word (or stopword) standing between two new ones
    while (j + 1 < ws.length && (fresh[j + 1] || (j + 2 < ws.length && fresh[j + 2] && !/[,;.]$/.test(ws[j + 1]!)))) j++;
    if (!best || j - i > best[1] - best[0]) best = [i, j];
    i = j;
  }
  return best ? tidy(untilClause(ws.slice(best[0], best[1] + 1).join(' '))) : undefined;
}
