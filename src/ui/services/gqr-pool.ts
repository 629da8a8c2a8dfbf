import * as Comlink from 'comlink';
import {
  abortError,
  collectSweepRuns,
  type GqrConfig,
  type GqrPipelineSpec,
  type QuerySweepResult,
  type SweepJob,
  type SweepPreparedQuery,
  type SweepProgress,
  type SweepRuns,
} from '../../core/index.ts';
import { withAbortPort } from '../../workers/abort-bridge.ts';
import type { GqrInspection, GqrPrepareResult, GqrWorkerApi } from '../../workers/gqr-worker-api.ts';
import { connectVectorShare } from './vector-broker.ts';

/** A GQR worker as the pool sees it: every call returns a promise (a comlink remote, or an in-thread fake in tests). */
export type GqrWorkerRemote = {
  [K in keyof GqrWorkerApi]: (...args: Parameters<NonNullable<GqrWorkerApi[K]>>) => Promise<Awaited<ReturnType<NonNullable<GqrWorkerApi[K]>>>>;
};

/** A started worker. */
export interface PoolWorker {
  api: GqrWorkerRemote;
  terminate(): void;
}

/** Most workers a pool starts, whatever the number of cores. */
export const MAX_POOL_SIZE = 4;

/** Queries per re-ranking chunk at least: smaller chunks cost more in messages than they gain in balance. */
const MIN_CHUNK = 4;

/** One worker per core (`navigator.hardwareConcurrency`), at most {@link MAX_POOL_SIZE}. */
export function defaultPoolSize(): number {
  const cores = globalThis.navigator?.hardwareConcurrency || 2;
  return Math.max(1, Math.min(cores, MAX_POOL_SIZE));
}

/** What a sweep runs on. */
export interface PoolSweepRequest {
  corpusId: string;
  /** The GQR pipeline; its config is the base the grid points override. */
  spec: GqrPipelineSpec;
  /** Stored queries to run (null: all of the corpus). */
  queryIds: readonly string[] | null;
  job: SweepJob;
}

/** A finished sweep's runs, with the prepared queries (kept for the inspector) and timings. */
export interface PoolSweepResult {
  runs: SweepRuns;
  prepared: SweepPreparedQuery[];
  /** The GQR retriever's configuration, children included. */
  config: Record<string, unknown>;
  loaded: string[];
  prepareMs: number;
  rerankMs: number;
  /** Workers that re-ranked. */
  workersUsed: number;
}

const cancelled = () => abortError('The sweep was cancelled');

/** `port` as comlink must send it (transferred, not copied). */
const transferred = (port: MessagePort | undefined) => port && Comlink.transfer(port, [port]);

/**
 * A pool of GQR workers. Worker 0 (the lead) loads the corpus's index, vectors and model and prepares every query
 * once; the prepared queries are then split into chunks that all workers take in turn, each re-ranking its chunk
 * at every grid point. Workers start on first use and stay for the next sweep.
 */
export class GqrWorkerPool {
  private readonly workers: (PoolWorker | undefined)[] = [];

  constructor(
    private readonly create: (index: number) => PoolWorker,
    /** Number of workers. */
    readonly size: number = defaultPoolSize(),
  ) {}

  private worker(index: number): GqrWorkerRemote {
    while (this.workers.length <= index) this.workers.push(undefined);
    this.workers[index] ??= this.create(index);
    return this.workers[index].api;
  }

  /** Stops a worker at once (a new one starts on next use); its pending calls never settle. */
  private stop(index: number): void {
    this.workers[index]?.terminate();
    this.workers[index] = undefined;
  }

  /**
   * Runs a sweep: prepare on the lead worker, re-rank on all; progress after every query; `signal` stops every
   * worker within one query (through abort ports, see workers/abort-bridge.ts).
   */
  async sweep(request: PoolSweepRequest, onProgress?: (progress: SweepProgress) => void, signal?: AbortSignal): Promise<PoolSweepResult> {
    signal?.throwIfAborted();
    const lead = this.worker(0);
    const prep: GqrPrepareResult = await withAbortPort(signal, (port) =>
      lead.prepare(
        request.corpusId,
        request.spec,
        request.queryIds,
        request.job.topK,
        Comlink.proxy((done: number, total: number) => onProgress?.({ phase: 'prepare', done, total })),
        transferred(port),
      ),
    );
    if (signal?.aborted) throw cancelled();

    const started = performance.now();
    const { prepared } = prep;
    const workersUsed = Math.max(1, Math.min(this.size, Math.ceil(prepared.length / MIN_CHUNK)));
    const chunkSize = Math.max(MIN_CHUNK, Math.ceil(prepared.length / (workersUsed * 4)));
    const chunks: SweepPreparedQuery[][] = [];
    for (let i = 0; i < prepared.length; i += chunkSize) chunks.push(prepared.slice(i, i + chunkSize));
    const results: QuerySweepResult[] = [];
    let next = 0;
    let done = 0;
    onProgress?.({ phase: 'rerank', done: 0, total: prepared.length });
    // Cancelling stops the helper workers at once; the lead keeps its loaded corpus and stops within one query.
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        for (let i = 1; i < workersUsed; i++) this.stop(i);
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});
    const queryDone = Comlink.proxy(() => {
      if (!signal?.aborted) onProgress?.({ phase: 'rerank', done: ++done, total: prepared.length });
    });
    const loop = async (index: number) => {
      const worker = this.worker(index);
      while (next < chunks.length) {
        if (signal?.aborted) throw cancelled();
        const chunk = chunks[next++]!;
        const rerank = withAbortPort(signal, (port) => worker.rerank(chunk, request.job, queryDone, transferred(port)));
        results.push(...(await Promise.race([rerank, aborted])));
      }
    };
    try {
      await Promise.all(Array.from({ length: workersUsed }, (_, i) => loop(i)));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted) throw cancelled();
    return {
      runs: collectSweepRuns(
        prepared.map((p) => p.queryId),
        results,
        request.job,
      ),
      prepared,
      config: prep.config,
      loaded: prep.loaded,
      prepareMs: prep.elapsedMs,
      rerankMs: performance.now() - started,
      workersUsed,
    };
  }

  /** Traces one prepared query at one configuration (on a helper worker when one runs, so the lead stays free). */
  trace(prepared: SweepPreparedQuery, config: GqrConfig, topK: number): Promise<GqrInspection> {
    return this.worker(this.workers[1] ? 1 : 0).trace(prepared, config, topK);
  }

  /** Prepares and traces one text on the lead worker (it holds the corpus's resources). */
  inspect(corpusId: string, spec: GqrPipelineSpec, text: string, topK: number): Promise<GqrInspection> {
    return this.worker(0).inspect(corpusId, spec, text, topK);
  }

  /** Drops a corpus's cached resources in every started worker. */
  async forget(corpusId: string): Promise<void> {
    await Promise.all(this.workers.map((w) => w?.api.forget(corpusId)));
  }

  /** Stops every worker. */
  dispose(): void {
    for (const w of this.workers.splice(0)) w?.terminate();
  }
}

let browserPool: GqrWorkerPool | null = null;

/** The app's GQR pool: module workers over `src/workers/gqr.worker.ts`. */
export function getGqrPool(): GqrWorkerPool {
  browserPool ??= new GqrWorkerPool((index) => {
    const worker = new Worker(new URL('../../workers/gqr.worker.ts', import.meta.url), { type: 'module', name: `gqr-${index}` });
    const api = Comlink.wrap<GqrWorkerApi>(worker) as unknown as GqrWorkerRemote;
    connectVectorShare(api, `gqr-${index}`);
    return { api, terminate: () => worker.terminate() };
  });
  return browserPool;
}
