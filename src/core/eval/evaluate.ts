import type { Qrel } from '../corpus/index.ts';
import type { ScoredDoc } from '../ranking/index.ts';
import { parseMeasure, type Measure } from './measures.ts';
import { judgeRanking, measureQuery } from './query-measures.ts';
import { rankForEvaluation, type RankingOptions } from './ranking.ts';
import type { QrelsMap, RunMap } from './types.ts';
import { idRecord } from '../ids/index.ts';

/** Options of `evaluateRun`. */
export type EvaluateOptions = RankingOptions;

/** Measure values of one run against qrels. */
export interface EvalResult {
  /** Measure name → mean over the evaluated queries (0 when no query was evaluated). */
  aggregate: Record<string, number>;
  /** Query id → measure name → value, for every evaluated query (in qrels order). */
  perQuery: Record<string, Record<string, number>>;
}

/**
 * Evaluates a run against qrels with trec_eval definitions (see `measureQuery` and `rankForEvaluation`).
 *
 * Query set: the evaluated queries are exactly the queries of the qrels with at least one judgement > 0.
 * Such a query that is missing from the run (or whose results are all dropped) scores 0 on every measure and
 * counts in the mean, as `trec_eval -c` does; queries of the run that are not in the qrels, or that have no
 * relevant judgement, are ignored. Measures may be names (`'nDCG@10'`) or parsed measures; unknown names throw.
 */
export function evaluateRun(
  qrels: QrelsMap,
  run: RunMap,
  measures: readonly (string | Measure)[],
  options: EvaluateOptions = {},
): EvalResult {
  const parsed = resolveMeasures(measures);
  const perQuery = idRecord<Record<string, number>>();
  const sums = new Map<string, number>(parsed.map((m) => [m.name, 0]));
  let count = 0;
  for (const [queryId, judgements] of qrels) {
    if (!hasRelevant(judgements)) continue;
    const ranked = rankForEvaluation(queryId, run.get(queryId) ?? [], options);
    const judged = judgeRanking(ranked, judgements);
    const values: Record<string, number> = {};
    for (const measure of parsed) {
      const value = measureQuery(measure, judged);
      values[measure.name] = value;
      sums.set(measure.name, (sums.get(measure.name) as number) + value);
    }
    perQuery[queryId] = values;
    count++;
  }
  const aggregate: Record<string, number> = {};
  for (const measure of parsed) aggregate[measure.name] = count === 0 ? 0 : (sums.get(measure.name) as number) / count;
  return { aggregate, perQuery };
}

function hasRelevant(judgements: ReadonlyMap<string, number>): boolean {
  for (const rel of judgements.values()) if (rel > 0) return true;
  return false;
}

/** Parses names, keeps parsed measures, and drops repeats (by canonical name). */
export function resolveMeasures(measures: readonly (string | Measure)[]): Measure[] {
  const seen = new Set<string>();
  const out: Measure[] = [];
  for (const m of measures) {
    const measure = typeof m === 'string' ? parseMeasure(m) : m;
    if (seen.has(measure.name)) continue;
    seen.add(measure.name);
    out.push(measure);
  }
  return out;
}

/**
 * Builds a QrelsMap from judgements. If the same (query, document) pair appears more than once, the last
 * judgement wins (as BEIR's and pytrec_eval's dictionaries do). Queries keep their first-seen order.
 */
export function buildQrelsMap(qrels: Iterable<Qrel>): QrelsMap {
  const map: QrelsMap = new Map();
  for (const { queryId, docId, relevance } of qrels) {
    let judgements = map.get(queryId);
    if (!judgements) {
      judgements = new Map();
      map.set(queryId, judgements);
    }
    judgements.set(docId, relevance);
  }
  return map;
}

/** One row of a run: a document returned for a query. */
export interface RunEntry {
  /** The query the document was returned for. */
  queryId: string;
  /** The returned document. */
  docId: string;
  /** The system's score; higher is better. */
  score: number;
}

/** Builds a RunMap from flat entries, keeping the entries' order within each query. */
export function buildRunMap(entries: Iterable<RunEntry>): RunMap {
  const map: RunMap = new Map();
  for (const { queryId, docId, score } of entries) {
    let docs: ScoredDoc[] | undefined = map.get(queryId);
    if (!docs) {
      docs = [];
      map.set(queryId, docs);
    }
    docs.push({ id: docId, score });
  }
  return map;
}
