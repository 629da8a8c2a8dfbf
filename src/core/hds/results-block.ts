import type { HdsTokenSpelling } from './parse-action.ts';
import type { RetrievedPassage } from './types.ts';

/** One query's line in a results block. */
export type ResultsBlockEntry =
  /** Retrieved: `texts` are the shown passages' texts in retriever order. */
  | { query: string; kind: 'ok'; texts: string[] }
  | { query: string; kind: 'failed' }
  /** Executed in an earlier turn and not retrieved again (H5). */
  | { query: string; kind: 'repeat'; firstTurn: number };

/** The results-block tokens in the spelling the model used (H1). */
export function resultsBlockTokens(spelling: HdsTokenSpelling): { begin: string; end: string } {
  return spelling === 'underscores'
    ? { begin: '<|begin_search_results|>', end: '<|end_search_results|>' }
    : { begin: '<|begin search results|>', end: '<|end search results|>' };
}

/**
 * A query block as a model writes it (spaces spelling): the line the interaction log gets for the question's own search
 * (extension `question-search`), so the log opens with a search and its results, as after a model's first turn.
 */
export function serializeQueryBlock(queries: readonly string[]): string {
  return `<|begin search queries|>${queries.join('; ')}<|end search queries|>`;
}

/**
 * The line that closes a results block whose queries were all searched before (`repeatedBlock: 'notice'`). It names
 * no entity and no answer, only what the model can do next.
 */
export const REPEATED_BLOCK_NOTICE =
  'Every query of this block was searched before and its results are earlier in the log. Do not repeat them: search for what is still missing with new queries, or give the final answer in \\boxed{}.';

/**
 * One line per query, between the results tokens (the reference, docs/decisions.md#hds-reference, plus the H5 repeat
 * line); `notice` (a block that only repeats, under `repeatedBlock: 'notice'`) is the block's last line.
 */
export function serializeResultsBlock(entries: readonly ResultsBlockEntry[], spelling: HdsTokenSpelling, notice?: string): string {
  const { begin, end } = resultsBlockTokens(spelling);
  const lines = [begin];
  for (const entry of entries) {
    if (entry.kind === 'failed') {
      lines.push(`${entry.query}: [retrieval failed]`);
    } else if (entry.kind === 'repeat') {
      lines.push(`${entry.query}: ${entry.firstTurn === 0 ? '[already searched before turn 1]' : `[already searched in turn ${entry.firstTurn}]`}`);
    } else {
      const joined = entry.texts.filter((t) => t !== '').join(' ');
      lines.push(joined === '' ? `${entry.query}:` : `${entry.query}: ${joined}`);
    }
  }
  if (notice) lines.push(notice);
  lines.push(end);
  return lines.join('\n');
}

/**
 * A turn's documents for `retrievedIds` (the reference, docs/decisions.md#hds-reference): one entry per id keeping the highest score (non-numeric
 * or NaN scores count as 0), sorted by score descending, ties by id ascending.
 */
export function mergeTurnResults(lists: ReadonlyArray<readonly RetrievedPassage[]>): string[] {
  const best = new Map<string, number>();
  for (const list of lists) {
    for (const passage of list) {
      if (passage.id === undefined || passage.id === null) continue;
      const id = String(passage.id);
      const score = typeof passage.score === 'number' && !Number.isNaN(passage.score) ? passage.score : 0;
      const seen = best.get(id);
      if (seen === undefined || score > seen) best.set(id, score);
    }
  }
  return [...best.entries()]
    .sort((a, b) => (a[1] > b[1] ? -1 : a[1] < b[1] ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([id]) => id);
}
