import { evaluateRun, type CorpusQuery, type QrelsMap } from '../../core/index.ts';

/** Measures shown for one query of the set, on the results shown. */
const QUERY_MEASURES = ['nDCG@10', 'RR', 'P@10', 'AP'];

/** Picks a query of the corpus's query set (its text is then searched). */
export function QueryPicker({ queries, value, onPick }: { queries: Map<string, CorpusQuery> | undefined; value: string | null; onPick: (query: CorpusQuery | null) => void }) {
  if (!queries || queries.size === 0) return null;
  return (
    <label>
      From the set{' '}
      <select className="query-picker" aria-label="Pick from the set" title="A query of the corpus's query set: its results show their relevance judgements and its measures" value={value ?? ''} onChange={(e) => onPick(queries.get(e.target.value) ?? null)}>
        <option value="">— type your own —</option>
        {[...queries.values()].map((q) => (
          <option key={q.id} value={q.id}>
            {q.id}: {q.text.length > 80 ? `${q.text.slice(0, 80)}…` : q.text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** How a result is judged for the query of the set: relevant (with its grade), judged not relevant, or unjudged. */
export function JudgementMark({ judgements, docId }: { judgements: ReadonlyMap<string, number> | undefined; docId: string }) {
  if (!judgements) return null;
  const grade = judgements.get(docId);
  if (grade === undefined) return <span className="meta" data-testid="qrel-mark">· unjudged</span>;
  return grade > 0 ? (
    <span className="qrel relevant" data-testid="qrel-mark" title={`Judged relevant, grade ${grade}`}>
      ✓ relevant ({grade})
    </span>
  ) : (
    <span className="qrel" data-testid="qrel-mark" title="Judged not relevant">
      ✗ judged not relevant
    </span>
  );
}

/** This query's measures on the ranking shown (trec_eval definitions), and how many of its relevant documents it holds. */
export function QueryMetrics({ queryId, qrels, ranking, topK }: { queryId: string; qrels: QrelsMap | undefined; ranking: Array<{ id: string; score: number }>; topK: number }) {
  const judgements = qrels?.get(queryId);
  if (!judgements) return <p className="meta" data-testid="query-metrics">{queryId} has no relevance judgements.</p>;
  const relevant = [...judgements.values()].filter((g) => g > 0).length;
  const found = ranking.filter((d) => (judgements.get(d.id) ?? 0) > 0).length;
  const result = evaluateRun(new Map([[queryId, judgements]]), new Map([[queryId, ranking]]), QUERY_MEASURES);
  const values = result.perQuery[queryId] ?? {};
  return (
    <p className="meta" data-testid="query-metrics">
      {queryId} on these {ranking.length} results: {QUERY_MEASURES.map((m) => `${m} ${(values[m] ?? 0).toFixed(4)}`).join(' · ')} · {found} of {relevant} relevant
      document(s) shown{ranking.length < topK ? '' : ` (top ${topK})`}
    </p>
  );
}
