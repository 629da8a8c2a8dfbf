// H9: a plan call stops at the end of its query block, so the workbench, not the model, writes the results.

/**
 * The stop sequences of every plan call: the end-of-queries marker and the begin-results marker, each in both
 * spellings (H1). Four strings, the most OpenAI's API accepts.
 */
export const PLAN_STOP_SEQUENCES: readonly string[] = Object.freeze([
  '<|end search queries|>',
  '<|end_search_queries|>',
  '<|begin search results|>',
  '<|begin_search_results|>',
]);

/** Why a reply ended. */
export type ReplyEnding =
  /** A stop sequence matched (the server said which, or a query block it left open was closed by the loop). */
  | 'stop-sequence'
  /** The completion-token limit (finish reason `length`). */
  | 'max_tokens'
  /** The model ended its turn itself (finish reason `stop` with no stop sequence matched). */
  | 'end-of-turn'
  /** The stream ended without a finish reason. */
  | 'end-of-stream'
  /** The workbench ended the call: the reply had fallen into a loop (extension plan-guard). */
  | 'repetition'
  /** The workbench ended the call at a misspelled end-of-queries marker (extension plan-guard). */
  | 'misspelled-marker';

const BEGIN_QUERIES = /<\|begin(?: search queries|_search_queries)\|>/gi;
const END_QUERIES = /<\|end(?: search queries|_search_queries)\|>/i;
const BEGIN_RESULTS = /<\|begin(?: search results|_search_results)\|>/i;

/** What `restoreStopMarker` made of a reply. */
export interface RestoredReply {
  /** The reply with the consumed end-of-queries marker put back, when one was. */
  content: string;
  /** The marker put back, when one was. */
  restored?: string;
}

/**
 * Puts back the end-of-queries marker a server consumed. Servers leave a matched stop sequence out of the reply
 * (OpenAI's protocol), so a reply stopped at `<|end search queries|>` ends inside an open query block. When the reply
 * ended on a stop (finish reason `stop`, or a reported stop sequence) and its last query block is open, the marker
 * is appended in the spelling of that block's opening marker (H1). Anything else is returned as it is.
 */
export function restoreStopMarker(content: string, ending: { finishReason?: string; stopSequence?: string }): RestoredReply {
  const stopped = ending.stopSequence !== undefined || ending.finishReason === 'stop';
  return stopped ? closeOpenQueryBlock(content) : { content };
}

/**
 * Closes the reply's last query block when it is open (no end-of-queries or begin-results marker after it), with the
 * end marker in the spelling of its opening marker (H1). Anything else is returned as it is.
 */
export function closeOpenQueryBlock(content: string): RestoredReply {
  let last: RegExpExecArray | undefined;
  for (const m of content.matchAll(BEGIN_QUERIES)) last = m as RegExpExecArray;
  if (!last) return { content };
  const after = content.slice(last.index + last[0].length);
  if (END_QUERIES.test(after) || BEGIN_RESULTS.test(after)) return { content };
  const restored = last[0].includes('_') ? '<|end_search_queries|>' : '<|end search queries|>';
  return { content: `${content}${restored}`, restored };
}

/** Why a reply ended, from the server's finish reason, the stop sequence it reported and any restored marker. */
export function replyEnding(response: { finishReason?: string; stopSequence?: string }, restored: boolean): ReplyEnding {
  if (response.finishReason === 'length') return 'max_tokens';
  if (response.stopSequence !== undefined || restored) return 'stop-sequence';
  if (response.finishReason !== undefined) return 'end-of-turn';
  return 'end-of-stream';
}

/** True when the model began writing search results itself (it wrote, or was stopped at, a begin-results marker). */
export function inventsResults(content: string, stopSequence?: string): boolean {
  return BEGIN_RESULTS.test(content) || (stopSequence !== undefined && BEGIN_RESULTS.test(stopSequence));
}
