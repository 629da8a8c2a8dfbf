import { useEffect, useMemo, useState } from 'react';
import { DEFAULT_MEASURES, DEFAULT_PERMUTATIONS, DEFAULT_SEED, defaultComparison, describeRunPipeline, groupRuns, isAbortError, type RunComparison, type RunSummary } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora } from '../shared/corpora.ts';
import { useRuns } from '../shared/runs.ts';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { hasRelevant, useQrels, useQueries } from '../shared/corpus-data.ts';
import { MeasuresInput } from '../shared/MeasuresInput.tsx';
import { cancelComparison, runComparison } from './compare-client.ts';
import { ComparisonTable } from './ComparisonTable.tsx';
import { HolmPanel } from './HolmPanel.tsx';
import { PerQueryTable, perQueryRows } from './PerQueryTable.tsx';
import { RankingsSideBySide } from './RankingsSideBySide.tsx';
import { RunPicker } from './RunPicker.tsx';
import '../shared/runs.css';
import './compare.css';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';
import { NumberField } from '../shared/NumberField.tsx';
import { usePageParam } from '../shared/page-links.ts';

const MAX_SEED = 2 ** 32 - 1;

type Job =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number }
  | { status: 'done'; corpusId: string; comparison: RunComparison; baseline: RunSummary; names: Record<string, string> }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

/** Compares saved runs of a corpus with a baseline: deltas, wins/ties/losses, significance, per-query views. */
export function ComparePage() {
  const { corpusId, setPage } = useAppStore();
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const runs = useRuns(corpus?.id ?? null);
  const qrels = useQrels(corpus?.id ?? null);
  const queries = useQueries(corpus?.id ?? null);
  const [baselineId, setBaselineId] = useState<string | null>(null);
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [measures, setMeasures] = useState<string[]>([...DEFAULT_MEASURES]);
  const [permutations, setPermutations] = useState(DEFAULT_PERMUTATIONS);
  const [seed, setSeed] = useState(DEFAULT_SEED);
  const [job, setJob] = useState<Job>({ status: 'idle' });
  // A link from another page (Search) names a query of the set: its rankings open once the runs are compared.
  const linkedQuery = usePageParam('query');

  const list = useMemo(() => runs.data ?? [], [runs.data]);
  const baselineGroups = useMemo(() => groupRuns(list), [list]);
  // Defaults (also after switching corpus), said under the picker: inside the newest sweep its primary-only run is
  // the baseline and its best grid point is ticked; else the newest run against the oldest. Tick more from the groups.
  const defaults = useMemo(() => defaultComparison(list, measures[0] ?? DEFAULT_MEASURES[0]!), [list, measures]);
  useEffect(() => {
    if (!defaults) return;
    if (!baselineId || !list.some((r) => r.id === baselineId)) {
      setBaselineId(defaults.baselineId);
      setTicked(new Set(defaults.tickedId ? [defaults.tickedId] : []));
    }
  }, [list, baselineId, defaults]);
  const defaultNote = list.length >= 2 ? (defaults?.note ?? null) : null;
  useEffect(() => () => cancelComparison(), []);

  const others = list.filter((r) => r.id !== baselineId && ticked?.has(r.id));
  const baseline = list.find((r) => r.id === baselineId);

  const compare = async () => {
    if (!corpus || !baseline || others.length === 0) return;
    const names = Object.fromEntries(others.map((r) => [r.id, r.name]));
    setJob({ status: 'running', done: 0, total: others.length });
    try {
      const comparison = await runComparison(
        { corpusId: corpus.id, baselineId: baseline.id, runIds: others.map((r) => r.id), measures, permutations, seed },
        (done, total) => setJob((j) => (j.status === 'running' ? { status: 'running', done, total } : j)),
      );
      setJob({ status: 'done', corpusId: corpus.id, comparison, baseline, names });
    } catch (error) {
      setJob(isAbortError(error) ? { status: 'cancelled' } : { status: 'failed', message: errorMessage(error) });
    }
  };

  if (corpora.data && corpora.data.length === 0) {
    return <NoCorpusYet action="compare runs of" />;
  }

  const scored = hasRelevant(qrels.data);
  const linkedText = linkedQuery ? queries.data?.get(linkedQuery)?.text : undefined;
  return (
    <>
      <section className="panel" aria-label="Compare runs">
        <h2>Compare runs</h2>
        <div className="row">
          <CorpusPicker />
        </div>
        {runs.data && list.length < 2 && (
          <p className="hint">
            Comparing needs at least two saved runs of this corpus. <button onClick={() => setPage('runs')}>Make or import runs</button>
          </p>
        )}
        {linkedQuery && (
          <p className="hint" data-testid="linked-query">
            Query {linkedQuery}
            {linkedText ? `: “${linkedText}”` : ' (not a query of this corpus)'} — its per-query values and both rankings open when the runs are compared.
          </p>
        )}
        {qrels.data && !scored && <p className="error">This corpus has no relevance judgements, so its runs cannot be compared.</p>}
        {list.length >= 2 && (
          <form
            className="compare-form"
            onSubmit={(e) => {
              e.preventDefault();
              void compare();
            }}
          >
            <label>
              Baseline{' '}
              <select aria-label="Baseline" value={baselineId ?? ''} onChange={(e) => setBaselineId(e.target.value)}>
                {baselineGroups.map((group) => (
                  <optgroup key={group.key} label={group.kind === 'sweep' ? `Sweep “${group.title}”` : group.title}>
                    {group.runs.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.name} — {describeRunPipeline(r.pipeline)}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </label>
            <RunPicker runs={list.filter((r) => r.id !== baselineId)} ticked={ticked ?? new Set()} onChange={setTicked} />
            {defaultNote && <p className="hint" data-testid="compare-default">{defaultNote}</p>}
            <div className="row">
              <MeasuresInput value={measures} onChange={setMeasures} />
              <label title="random sign flips per test">
                Permutations{' '}
                <NumberField integer min={1} max={1_000_000} value={permutations} aria-label="Permutations" onChange={setPermutations} />
              </label>
              <label title="the same seed gives the same p-values">
                Seed{' '}
                <NumberField integer min={0} max={MAX_SEED} value={seed} aria-label="Seed" onChange={setSeed} />
              </label>
            </div>
            <div className="row">
              <button type="submit" className="primary" disabled={job.status === 'running' || others.length === 0 || !scored}>
                Compare {others.length} run(s) with the baseline
              </button>
              {job.status === 'running' && (
                <>
                  <progress max={job.total} value={job.done} aria-label="Comparison progress" className="inline" />
                  <span>
                    {job.done} / {job.total} runs
                  </span>
                  <button type="button" onClick={cancelComparison}>
                    Cancel
                  </button>
                </>
              )}
            </div>
          </form>
        )}
        {job.status === 'cancelled' && <p role="status">The comparison was cancelled.</p>}
        {job.status === 'failed' && (
          <p className="error" role="alert">
            The comparison failed: {job.message}
          </p>
        )}
      </section>
      {job.status === 'done' && corpus && job.corpusId === corpus.id && (
        <ComparisonResults key={`${job.baseline.id}:${job.comparison.rows.length}`} job={job} corpusId={corpus.id} queries={queries.data} qrels={qrels.data} linkedQuery={linkedQuery} />
      )}
    </>
  );
}

function ComparisonResults({
  job,
  corpusId,
  queries,
  qrels,
  linkedQuery,
}: {
  linkedQuery: string | null;
  job: Extract<Job, { status: 'done' }>;
  corpusId: string;
  queries: Parameters<typeof perQueryRows>[3];
  qrels: Parameters<typeof RankingsSideBySide>[0]['qrels'];
}) {
  const { comparison, baseline, names } = job;
  const runKeys = Object.keys(comparison.perQuery);
  const [runKey, setRunKey] = useState(runKeys[0]!);
  const [measure, setMeasure] = useState(comparison.measures[0]!);
  const [openQueryId, setOpenQueryId] = useState<string | null>(linkedQuery && comparison.queryIds.includes(linkedQuery) ? linkedQuery : null);
  const rows = useMemo(() => perQueryRows(comparison, runKey, measure, queries), [comparison, runKey, measure, queries]);
  return (
    <>
      <ComparisonTable comparison={comparison} baseline={baseline} names={names} />
      <HolmPanel comparison={comparison} names={names} />
      <section className="panel" aria-label="Per-query comparison">
        <h2>Per query</h2>
        <div className="row">
          <label>
            Run{' '}
            <select aria-label="Per-query run" value={runKey} onChange={(e) => setRunKey(e.target.value)}>
              {runKeys.map((key) => (
                <option key={key} value={key}>
                  {names[key] ?? key}
                </option>
              ))}
            </select>
          </label>
          <label>
            Measure{' '}
            <select aria-label="Per-query measure" value={measure} onChange={(e) => setMeasure(e.target.value)}>
              {comparison.measures.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        </div>
        <PerQueryTable rows={rows} measure={measure} baselineName={baseline.name} runName={names[runKey] ?? runKey} openQueryId={openQueryId} onOpen={setOpenQueryId} />
      </section>
      {openQueryId && (
        <RankingsSideBySide
          corpusId={corpusId}
          queryId={openQueryId}
          queryText={queries?.get(openQueryId)?.text ?? ''}
          baselineId={baseline.id}
          runId={runKey}
          measures={comparison.measures.map((m) => ({
            name: m,
            baseline: comparison.baselinePerQuery[openQueryId]?.[m] ?? 0,
            run: comparison.perQuery[runKey]?.[openQueryId]?.[m] ?? 0,
          }))}
          qrels={qrels}
          onClose={() => setOpenQueryId(null)}
        />
      )}
    </>
  );
}
