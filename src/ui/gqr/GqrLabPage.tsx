import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { describeGqrPool, describePipeline, describeSettings, type CorpusDocument, type SweepKey } from '../../core/index.ts';
import { errorMessage, formatCount, formatDuration } from '../shared/format.ts';
import { hasRelevant, useQrels, useQueries } from '../shared/corpus-data.ts';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora } from '../shared/corpora.ts';
import { useRuns } from '../shared/runs.ts';
import { getCorpusStore, getRunStore } from '../services/stores.ts';
import { downloadText, safeFileName } from '../shared/download.ts';
import { experimentRecipeText } from '../shared/recipes.ts';
import { AlphaChart } from './AlphaChart.tsx';
import { BestPointTest } from './BestPointTest.tsx';
import { buildAlphaChart, chartXKeys, findPoint, perQueryDeltas, winsRows } from './alpha-chart-data.ts';
import { getGqrPool } from '../services/gqr-pool.ts';
import { labSweepsFromRuns, sweepRecipeExperiment, type SavedSweep } from '../../core/index.ts';
import { QueryInspector } from '../shared/QueryInspector.tsx';
import { sweepCsv } from './sweep-csv.ts';
import { SweepForm } from './SweepForm.tsx';
import { SweepRecipePanel } from './SweepRecipePanel.tsx';
import { PointQueriesTable, WinsTable, type PointQueryRow } from './SweepTables.tsx';
import { useSweepJob, useSweepStore } from './sweep-store.ts';
import { isActive } from '../shared/job-store.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import './gqr.css';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';
import { useNow } from '../shared/use-now.ts';
import { usePageParam } from '../shared/page-links.ts';

/** The GQR lab: sweep GQR settings over a query set, read the answer off a chart, inspect single queries. */
export function GqrLabPage() {
  const corpusId = useAppStore((s) => s.corpusId);
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const qrels = useQrels(corpusId);
  const current = useSweepStore((s) => s.current);
  const show = useSweepStore((s) => s.show);
  useEffect(() => {
    if (current && current.corpusId !== corpusId) show(null);
  }, [corpusId, current, show]);
  // A link from another page (Search) names a query to inspect: it opens in the shown sweep, or the newest saved one.
  const linked = useLinkedQuery();
  const runs = useRuns(linked ? corpusId : null);
  const newest = useMemo(() => (linked ? labSweepsFromRuns(runs.data ?? []).sort((a, b) => b.createdAt - a.createdAt)[0] : undefined), [linked, runs.data]);
  useEffect(() => {
    if (linked && newest && (!current || current.corpusId !== corpusId)) show(newest);
  }, [linked, newest, current, corpusId, show]);

  if (corpora.data && corpora.data.length === 0) {
    return <NoCorpusYet action="experiment on" />;
  }
  return (
    <div className="gqr-lab">
      <section className="panel">
        <h2>GQR lab</h2>
        <p className="hint">
          Guided Query Refinement re-ranks the pooled results of a dense primary and a BM25 complementary retriever by refining the dense query toward
          the BM25 distribution. A sweep runs both children once per query and re-ranks at every grid point in a pool of workers; every grid point and
          the baselines (primary only, complementary only, RRF, best convex combination) are saved as runs.
        </p>
        <CorpusPicker />
      </section>
      {corpus && <SweepForm corpus={corpus} scored={hasRelevant(qrels.data)} />}
      {corpus && <SweepRecipePanel corpus={corpus} />}
      <SweepJobStatus />
      {corpus && <SavedSweeps corpusId={corpus.id} />}
      {linked && (!current || current.corpusId !== corpusId) && runs.data && (
        <p className="panel hint" data-testid="linked-query">
          {linked.queryId ? `Query ${linked.queryId}` : 'The text'} “{linked.text}” is inspected at a sweep’s best point: this corpus has no sweep yet — run one above.
        </p>
      )}
      {current && current.corpusId === corpusId && <SweepResults key={`${current.id}:${linked?.queryId ?? ''}:${linked?.text ?? ''}`} sweep={current} linked={linked} />}
    </div>
  );
}

function SweepJobStatus() {
  const state = useSweepJob((s) => s.state);
  const cancel = useSweepJob((s) => s.cancel);
  const now = useNow(isActive(state));
  switch (state.status) {
    case 'idle':
    case 'done':
      return null;
    case 'running':
    case 'cancelling': {
      const p = state.progress;
      const seconds = (now - state.startedAt) / 1000;
      const phase =
        state.status === 'cancelling'
          ? 'Cancelling'
          : p.phase === 'prepare'
            ? 'Retrieving with both children and embedding'
            : p.phase === 'rerank'
              ? `Re-ranking at ${p.points} grid points`
              : 'Scoring and saving the runs';
      return (
        <section className="panel sweep-progress" data-testid="sweep-progress" aria-label="Sweep progress">
          <p>
            “{state.info.name}”: {phase}
            {p.phase !== 'save' ? ` — ${formatCount(p.done)} / ${formatCount(p.total)} queries` : '…'} · {formatDuration(seconds)}
          </p>
          <progress max={p.total || 1} value={p.phase === 'save' ? p.total : p.done} aria-label="Sweep progress" />
          {p.phase !== 'save' && <CancelButton cancelling={state.status === 'cancelling'} onCancel={cancel} label="Cancel sweep" />}
        </section>
      );
    }
    case 'cancelled':
      return (
        <p className="panel" role="status">
          The sweep “{state.info.name}” was cancelled; nothing was saved.
        </p>
      );
    case 'failed':
      return (
        <p className="panel error" role="alert">
          The sweep “{state.info.name}” failed: {state.message}
        </p>
      );
  }
}

function SavedSweeps({ corpusId }: { corpusId: string }) {
  const runs = useRuns(corpusId);
  const sweeps = useMemo(() => labSweepsFromRuns(runs.data ?? []), [runs.data]);
  const current = useSweepStore((s) => s.current);
  const show = useSweepStore((s) => s.show);
  if (sweeps.length === 0) return null;
  return (
    <section className="panel" aria-label="Saved sweeps">
      <h2>Sweeps of this corpus</h2>
      <ul className="sweep-list">
        {sweeps.map((s) => (
          <li key={s.id}>
            <button type="button" className={current?.id === s.id ? 'link current' : 'link'} onClick={() => show(s)}>
              {s.name}
            </button>{' '}
            <span className="meta">
              {new Date(s.createdAt).toLocaleString()} · {s.points.length} points × {formatCount(s.queryCount)} queries · {(s.elapsedMs / 1000).toFixed(1)} s
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Downloads the sweep's recipe (GQR pipeline, grid, top k, measures, models with file hashes, corpus checksums). */
function SweepRecipeButton({ sweep }: { sweep: SavedSweep }) {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    try {
      const firstRun = Object.values(sweep.runIds)[0];
      const environment = firstRun ? (await (await getRunStore()).getRun(firstRun))?.environment : undefined;
      const experiment = sweepRecipeExperiment(sweep);
      downloadText(`${safeFileName(sweep.name)}.recipe.json`, await experimentRecipeText(sweep.name, sweep.corpusId, experiment, environment), 'application/json');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <p className="row">
      <button type="button" onClick={() => void download()} title="Download the sweep's recipe: everything needed to make it again">
        Recipe
      </button>
      {error && <span className="error" role="alert">Could not make the recipe: {error}</span>}
    </p>
  );
}

type InspectTarget = { pointId: string; queryId: string | null; text: string };

/** The query a link to the lab names (`#/gqr?query=q01&text=…`), or null. */
function useLinkedQuery(): { queryId: string | null; text: string } | null {
  const queryId = usePageParam('query');
  const text = usePageParam('text');
  return useMemo(() => (queryId || text ? { queryId, text: text ?? '' } : null), [queryId, text]);
}

function SweepResults({ sweep, linked }: { sweep: SavedSweep; linked?: { queryId: string | null; text: string } | null }) {
  const measures = sweep.evaluation.measures;
  const [measure, setMeasure] = useState(measures[0]!);
  const xKeys = chartXKeys(sweep.axes);
  const [xKey, setXKey] = useState<SweepKey>(xKeys[0]!);
  const model = useMemo(() => buildAlphaChart(sweep, measure, xKey), [sweep, measure, xKey]);
  const bestId = sweep.evaluation.bestPoint[measure]?.at as string | undefined;
  const [selected, setSelected] = useState<string | null>(null);
  const pointId = selected ?? bestId ?? sweep.points[0]?.id ?? null;
  const point = pointId ? findPoint(sweep.points, pointId) : undefined;
  const queries = useQueries(sweep.corpusId);
  const [inspect, setInspect] = useState<InspectTarget | null>(null);
  // A linked query opens in the inspector at the best point, once its text is known.
  useEffect(() => {
    if (!linked || !pointId) return;
    const text = (linked.queryId ? queries.data?.get(linked.queryId)?.text : undefined) ?? linked.text;
    if (linked.queryId && !queries.data) return;
    if (text) setInspect({ pointId, queryId: linked.queryId && queries.data?.has(linked.queryId) ? linked.queryId : null, text });
    // Only when the link (or the loaded queries) change, not when another point is picked.
  }, [linked, queries.data]);
  const rows = useMemo(() => winsRows(sweep, measure), [sweep, measure]);
  const deltas = useMemo(() => (pointId ? perQueryDeltas(sweep.evaluation, pointId, measure) : []), [sweep.evaluation, pointId, measure]);
  const [adHoc, setAdHoc] = useState('');
  const primary = sweep.evaluation.baselines.primary;
  const pointQueries = useMemo(() => deltas.map((d) => ({ ...d, text: queries.data?.get(d.queryId)?.text ?? '' })), [deltas, queries.data]);
  const inspectQuery = useCallback(
    (row: PointQueryRow) => {
      if (pointId) setInspect({ pointId, queryId: row.queryId, text: row.text });
    },
    [pointId],
  );

  return (
    <>
      <section className="panel" aria-label="Sweep results">
        <h2>{sweep.name}</h2>
        <p className="meta" data-testid="sweep-summary">
          {sweep.points.length} grid points × {formatCount(sweep.queryCount)} queries ({sweep.evaluation.evaluatedQueries} judged) in{' '}
          {(sweep.elapsedMs / 1000).toFixed(1)} s · top {sweep.topK} · {describePipeline(sweep.spec.primary)} ← {describePipeline(sweep.spec.complementary)} · pool{' '}
          {describeGqrPool(sweep.topK, sweep.spec.config)}
          {sweep.childFallbacks > 0 ? ` · ${sweep.childFallbacks} queries where a child could not embed` : ''}
        </p>
        <SweepRecipeButton sweep={sweep} />
        <div className="row wrap">
          <label>
            Measure{' '}
            <select aria-label="Chart measure" value={measure} onChange={(e) => setMeasure(e.target.value)}>
              {measures.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          {xKeys.length > 1 && (
            <label>
              x axis{' '}
              <select aria-label="Chart x axis" value={xKey} onChange={(e) => setXKey(e.target.value as SweepKey)}>
                {xKeys.map((k) => (
                  <option key={k}>{k}</option>
                ))}
              </select>
            </label>
          )}
        </div>
        <AlphaChart model={model} title={sweep.name} csv={() => sweepCsv(sweep, measure)} onSelectPoint={setSelected} />
        <BestPointTest sweep={sweep} measure={measure} />
        <p className="hint" data-testid="sweep-cut-note">
          Every line and point here is a ranking cut at top {sweep.topK}, taken from child lists of {describeGqrPool(sweep.topK, sweep.spec.config)}.
          The same pipeline run on the Runs page at a larger k can score a little differently at @{sweep.topK} measures: trec_eval orders tied
          scores by document id, and a ranking cut at {sweep.topK} lacks the documents tied with its last one. A Runs-page run at k {sweep.topK} scores as here.
        </p>
        {sweep.axes.some((a) => a.key === 'target') && (
          <p className="hint">
            With the per-step target (the reference) α only scales the step, so every run drifts toward the BM25 ranking; with the fixed target α sets
            the blend (G1 in docs/decisions.md).
          </p>
        )}
        <h3>Per query against the primary ({measure})</h3>
        <WinsTable rows={rows} measure={measure} primaryValue={primary.aggregate[measure] ?? 0} selectedId={pointId} bestId={bestId} onSelect={setSelected} />
        {point && (
          <>
            <h3>Queries at {describeSettings(point.settings)}</h3>
            <PointQueriesTable rows={pointQueries} onInspect={inspectQuery} />
            <form
              className="row"
              onSubmit={(e) => {
                e.preventDefault();
                if (adHoc.trim()) setInspect({ pointId: point.id, queryId: null, text: adHoc.trim() });
              }}
            >
              <input type="search" value={adHoc} onChange={(e) => setAdHoc(e.target.value)} placeholder="Any other text" aria-label="Inspect text" />
              <button type="submit">Inspect text</button>
            </form>
          </>
        )}
      </section>
      {inspect && <InspectorPanel sweep={sweep} target={inspect} />}
    </>
  );
}

function InspectorPanel({ sweep, target }: { sweep: SavedSweep; target: InspectTarget }) {
  const point = findPoint(sweep.points, target.pointId);
  const prepared = useSweepStore((s) => (s.prepared?.sweepId === sweep.id && target.queryId ? s.prepared.byQuery.get(target.queryId) : undefined));
  const qrels = useQrels(sweep.corpusId);
  const inspection = useQuery({
    queryKey: ['gqr-inspect', sweep.id, target.pointId, target.queryId, target.text],
    enabled: !!point,
    staleTime: Infinity,
    queryFn: async () => {
      const pool = getGqrPool();
      const result = prepared
        ? await pool.trace(prepared, point!.config, sweep.topK)
        : await pool.inspect(sweep.corpusId, { ...sweep.spec, config: point!.config }, target.text, sweep.topK);
      const ids = [...new Set(result.trace.pool)];
      const docs = await (await getCorpusStore()).getDocuments(sweep.corpusId, ids);
      const documents = new Map<string, CorpusDocument>();
      docs.forEach((d, i) => d && documents.set(ids[i]!, d));
      return { result, documents };
    },
  });
  const heading = `${target.queryId ? `Query ${target.queryId}` : 'Text'}: “${target.text}” at ${point ? describeSettings(point.settings) : target.pointId}`;
  if (inspection.isError) {
    return (
      <p className="panel error" role="alert">
        The inspector failed: {errorMessage(inspection.error)}
      </p>
    );
  }
  if (!inspection.data) return <p className="panel">Inspecting “{target.text}”…</p>;
  const judgements = target.queryId ? qrels.data?.get(target.queryId) : undefined;
  return <QueryInspector inspection={inspection.data.result} documents={inspection.data.documents} judgements={judgements} heading={heading} />;
}
