import { useQuery } from '@tanstack/react-query';
import { rankForEvaluation, runMapOfRecord, type QrelsMap, type RunRecord } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { useRun } from '../shared/runs.ts';
import { getCorpusStore } from '../services/stores.ts';
import { useReveal } from '../shared/use-reveal.ts';
import { formatMeasure } from './number-format.ts';

const TOP = 20;

interface RankedDoc {
  id: string;
  score: number;
}

/** The top of a query's ranking as evaluated (score order, ties by id, BEIR's identical-id rule). */
function topOf(record: RunRecord, queryId: string): RankedDoc[] {
  const docs = runMapOfRecord(record).get(queryId) ?? [];
  const scores = new Map(docs.map((d) => [d.id, d.score]));
  return rankForEvaluation(queryId, docs)
    .slice(0, TOP)
    .map((id) => ({ id, score: scores.get(id)! }));
}

/** The baseline's and a run's top 20 for one query, side by side, with qrels relevance and documents only in one. */
export function RankingsSideBySide({
  corpusId,
  queryId,
  queryText,
  baselineId,
  runId,
  measures,
  qrels,
  onClose,
}: {
  corpusId: string;
  queryId: string;
  queryText: string;
  baselineId: string;
  runId: string;
  measures: Array<{ name: string; baseline: number; run: number }>;
  qrels: QrelsMap | undefined;
  onClose: () => void;
}) {
  const baseline = useRun(baselineId);
  const run = useRun(runId);
  const left = baseline.data ? topOf(baseline.data, queryId) : [];
  const right = run.data ? topOf(run.data, queryId) : [];
  const ids = [...new Set([...left, ...right].map((d) => d.id))];
  const titles = useQuery({
    queryKey: ['doc-titles', corpusId, ids],
    queryFn: async () => {
      const docs = await (await getCorpusStore()).getDocuments(corpusId, ids);
      return new Map(ids.map((id, i) => [id, docs[i]?.title ?? '']));
    },
    enabled: ids.length > 0,
  });
  const judgements = qrels?.get(queryId);
  const relevantCount = [...(judgements?.values() ?? [])].filter((r) => r > 0).length;
  const error = baseline.error ?? run.error ?? titles.error;
  const reveal = useReveal<HTMLElement>(`${queryId}\n${runId}`);
  return (
    <section ref={reveal} tabIndex={-1} className="panel side-by-side" aria-label="Rankings side by side">
      <div className="row spread">
        <h2>
          Query {queryId}: <span className="query-text">{queryText}</span>
        </h2>
        <button type="button" onClick={onClose}>
          Close rankings
        </button>
      </div>
      <p className="meta">
        {relevantCount} relevant document(s) in the qrels.{' '}
        {measures.map((m) => `${m.name}: ${formatMeasure(m.baseline)} → ${formatMeasure(m.run)}`).join(' · ')}
      </p>
      {error && <p className="error">Could not show the rankings: {errorMessage(error)}</p>}
      <div className="rankings">
        <RankingColumn label={baseline.data?.name ?? 'Baseline'} role="Baseline" docs={left} other={right} judgements={judgements} titles={titles.data} />
        <RankingColumn label={run.data?.name ?? 'Run'} role="Run" docs={right} other={left} judgements={judgements} titles={titles.data} />
      </div>
      <p className="hint legend">
        <span className="rel-chip relevant">rel 1+</span> judged relevant (grade shown) · <span className="rel-chip not-relevant">rel 0</span> judged not
        relevant · <span className="rel-chip unjudged">?</span> unjudged · <span className="only-chip">only here</span> not in the other ranking’s top {TOP}
      </p>
    </section>
  );
}

function RankingColumn({
  label,
  role,
  docs,
  other,
  judgements,
  titles,
}: {
  label: string;
  role: string;
  docs: RankedDoc[];
  other: RankedDoc[];
  judgements: ReadonlyMap<string, number> | undefined;
  titles: Map<string, string> | undefined;
}) {
  const otherIds = new Set(other.map((d) => d.id));
  return (
    <div className="ranking-column">
      <h3>
        {role}: {label}
      </h3>
      {docs.length === 0 ? (
        <p className="hint">No results for this query.</p>
      ) : (
        <ol aria-label={`${role} ranking`}>
          {docs.map((d) => {
            const rel = judgements?.get(d.id);
            const only = !otherIds.has(d.id);
            const relClass = rel === undefined ? 'unjudged' : rel > 0 ? 'relevant' : 'not-relevant';
            return (
              <li key={d.id} className={`${relClass}${only ? ' only' : ''}`} data-testid="ranked-doc" data-relevance={rel ?? ''} data-only={only ? 'true' : undefined}>
                <span className={`rel-chip ${relClass}`} title={rel === undefined ? 'unjudged' : `relevance ${rel}`}>
                  {rel === undefined ? '?' : `rel ${rel}`}
                </span>{' '}
                <span className="doc-title">{titles?.get(d.id) || d.id}</span> <span className="meta">
                  {d.id} · {d.score.toFixed(3)}
                </span>
                {only && <span className="only-chip">only here</span>}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
