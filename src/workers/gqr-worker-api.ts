import type {
  GqrConfig,
  GqrOutcome,
  GqrPipelineSpec,
  GqrTrace,
  QuerySweepResult,
  ScoredDoc,
  SweepJob,
  SweepPreparedQuery,
} from '../core/index.ts';
import type { VectorShareTarget } from './vector-share.ts';

/** Queries of a corpus prepared for a sweep (children run, query and candidates embedded). */
export interface GqrPrepareResult {
  prepared: SweepPreparedQuery[];
  /** The GQR retriever's configuration, children included, as runs save it. */
  config: Record<string, unknown>;
  /** What had to be loaded (index restored, model loaded, vectors read). */
  loaded: string[];
  /** Time spent preparing, in ms. */
  elapsedMs: number;
}

/** One query through GQR with its whole trace, for the inspector. */
export interface GqrInspection extends GqrOutcome {
  trace: GqrTrace;
  /** The child lists the pool was built from (fetch_k each). */
  primary: ScoredDoc[];
  complementary: ScoredDoc[];
}

/** What a GQR worker offers (through comlink). A pool runs one per core; the first one also prepares queries. */
export interface GqrWorkerApi extends Partial<VectorShareTarget> {
  /**
   * Runs the children and embeds the queries (all stored queries when `queryIds` is null) for `topK` results;
   * `onProgress(done, total)` after each query; `abortPort` (see abort-bridge.ts) stops it within one query.
   */
  prepare(
    corpusId: string,
    spec: GqrPipelineSpec,
    queryIds: readonly string[] | null,
    topK: number,
    onProgress?: (done: number, total: number) => void,
    abortPort?: MessagePort,
  ): Promise<GqrPrepareResult>;
  /**
   * Re-ranks prepared queries at every grid point of `job` and computes the baselines (CPU only); `onQueryDone`
   * after each query; `abortPort` stops it within one query.
   */
  rerank(prepared: SweepPreparedQuery[], job: SweepJob, onQueryDone?: () => void, abortPort?: MessagePort): Promise<QuerySweepResult[]>;
  /** One prepared query at one configuration, with the trace. */
  trace(prepared: SweepPreparedQuery, config: GqrConfig, topK: number): GqrInspection;
  /** Prepares one text (a stored query's or any other) and traces it. */
  inspect(corpusId: string, spec: GqrPipelineSpec, text: string, topK: number): Promise<GqrInspection>;
  /** Drops cached indexes, vectors and models of a corpus. */
  forget(corpusId: string): void;
}
