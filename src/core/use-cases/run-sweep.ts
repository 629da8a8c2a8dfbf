import { buildQrelsMap } from '../eval/index.ts';
import type { GqrPipelineSpec } from '../retrieval/index.ts';
import { type RunRecord, type RunStore, newSweepId, sweepRunRecords, type SavedSweep, type SweepEnvironment } from '../runs/index.ts';
import type { CorpusStore } from '../storage/index.ts';
import {
  evaluateSweep, expandGrid, type GridAxis, type SweepProgress, DEFAULT_CC_WEIGHTS, type SweepJob,
  type SweepPreparedQuery, type SweepRuns,
} from '../sweep/index.ts';

/** What a sweep needs. */
export interface SweepRequest {
  corpusId: string;
  /** Name given by the user; every saved run's name starts with it. */
  name: string;
  /** The GQR pipeline; its config is the base the grid overrides. */
  spec: GqrPipelineSpec;
  axes: GridAxis[];
  /** Results kept per query. */
  topK: number;
  measures: string[];
  /** The host's software and the models' file hashes by model key, recorded on every saved run of the sweep. */
  environment?: SweepEnvironment;
}

/** The children run once per query and every grid point re-ranked: what a host computes for the use case. */
export interface SweepComputation {
  runs: SweepRuns;
  /** The GQR retriever's configuration (children included). */
  config: Readonly<Record<string, unknown>>;
  /** The prepared queries, when the host keeps them (the GQR lab's inspector reuses them). */
  prepared?: SweepPreparedQuery[];
}

/** What the use case runs on. */
export interface SweepDeps {
  corpora: CorpusStore;
  /** Where the sweep's runs are saved; absent: they are only returned (the CLI writes them to a file). */
  runs?: Pick<RunStore, 'saveRun'>;
  /**
   * Runs `job` over every stored query of the corpus: in one thread with `sweepQueries` (the CLI), or split over
   * a pool of workers (the browser).
   */
  compute(job: SweepJob, onProgress: (progress: SweepProgress) => void, signal?: AbortSignal): Promise<SweepComputation>;
}

/** Progress of a sweep: computing (`prepare`, `rerank`), then saving its runs; `points` in the grid. */
export type SweepUseCaseProgress = (SweepProgress | { phase: 'save'; done: number; total: number }) & { points: number };

export interface SweepOptions {
  onProgress?(progress: SweepUseCaseProgress): void;
  signal?: AbortSignal;
}

export interface SweepResult {
  sweep: SavedSweep;
  /** Its runs, as saved: one per grid point, then the baselines. */
  records: RunRecord[];
  computation: SweepComputation;
}

/**
 * Sweeps GQR settings over a corpus's query set: expands the grid (throws SweepGridError on a bad one), computes,
 * scores every point and baseline against the corpus's qrels and saves them as runs tagged with the sweep.
 */
export async function runSweep(request: SweepRequest, deps: SweepDeps, options: SweepOptions = {}): Promise<SweepResult> {
  const { spec, axes, topK, measures } = request;
  const points = expandGrid(axes, spec.config);
  const corpus = await deps.corpora.getCorpus(request.corpusId);
  if (!corpus) throw new Error('This corpus is no longer stored: it was deleted, perhaps in another tab.');
  const startedAt = performance.now();
  const createdAt = Date.now();
  const job: SweepJob = { points, topK, ccWeights: DEFAULT_CC_WEIGHTS };
  options.onProgress?.({ phase: 'prepare', done: 0, total: corpus.queryCount, points: points.length });
  const computation = await deps.compute(job, (p) => options.onProgress?.({ ...p, points: points.length }), options.signal);
  options.signal?.throwIfAborted();
  const qrels = buildQrelsMap(await deps.corpora.getQrels(corpus.id));
  const evaluation = evaluateSweep(computation.runs, qrels, measures);
  if (evaluation.evaluatedQueries === 0) throw new Error(`“${corpus.name}” has no relevance judgements (qrels), so the sweep cannot be scored.`);
  const sweep: Omit<SavedSweep, 'runIds' | 'evaluation'> = {
    id: newSweepId(),
    name: request.name,
    corpusId: corpus.id,
    corpusName: corpus.name,
    createdAt,
    spec,
    topK,
    axes,
    points,
    queryCount: computation.runs.queryIds.length,
    elapsedMs: performance.now() - startedAt,
    childFallbacks: Object.keys(computation.runs.childFallbacks).length,
  };
  const { records, runIds } = sweepRunRecords({ sweep, runs: computation.runs, evaluation, qrels, retrieverConfig: computation.config, environment: request.environment });
  if (deps.runs) {
    // Once computed, a sweep is saved whole: a cancel now would leave a sweep with missing runs.
    for (const [i, record] of records.entries()) {
      options.onProgress?.({ phase: 'save', done: i, total: records.length, points: points.length });
      await deps.runs.saveRun(record);
    }
  }
  return { sweep: { ...sweep, evaluation, runIds }, records, computation };
}
