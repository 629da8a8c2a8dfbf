// The HDS worker's jobs over the core's use cases, apart from the worker glue so they can be tested in Node:
// one job at a time, events to the page, the in-browser model kept loaded between jobs.
import {
  createLlmProvider,
  resumeBatch,
  runBatch,
  runQuestion,
  samplingOf,
  type AgentRunDeps,
  type AgentRunStore,
  type BatchItem,
  type BatchProgress,
  type ConnectionTestResult,
  type CorpusStore,
  type LlmProvider,
  type LlmProviderSettings,
  type ProviderHost,
  type RetrievalResources,
  type RunEnvironmentSource,
  type SavedBatchRun,
  type SavedQuestionRun,
} from '../core/index.ts';
import type { BatchRunRequest, HdsWorkerEvent, QuestionRunRequest } from './hds-worker-api.ts';

/** What the jobs run on. */
export interface HdsJobsEnv {
  corpora: CorpusStore;
  runs: AgentRunStore;
  /** Retrieval resources of a corpus (cached by the host). */
  resources(corpusId: string): RetrievalResources;
  /** Drops a corpus's cached resources. */
  forget?(corpusId: string): void;
  /** fetch, transformers.js loader, WebGPU detection. */
  host?: Omit<ProviderHost, 'onModelProgress'>;
  /** Runs `work` holding a lock named `name` (Web Locks in browsers), so other tabs can tell a batch is alive. */
  withLock?<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** ms since the epoch (tests pin it). */
  clock?: () => number;
  /** The host and the file hashes of the corpus's embedding models, recorded on every saved run. */
  environment?(corpusId: string): Promise<RunEnvironmentSource>;
}

type Listener = ((event: HdsWorkerEvent) => void) | undefined;

/** The HDS worker's API over stored corpora and runs, with signals where the worker has abort ports. */
export class HdsJobs {
  private controller: AbortController | null = null;
  private listener: Listener;
  // In-browser models are loaded once and reused; HTTP providers are cheap to rebuild.
  private inBrowser: { key: string; provider: LlmProvider } | null = null;

  constructor(private readonly env: HdsJobsEnv) {}

  runQuestion({ provider, ...request }: QuestionRunRequest, onEvent?: Listener, signal?: AbortSignal): Promise<SavedQuestionRun> {
    return this.job(onEvent, signal, async (jobSignal) =>
      runQuestion(request, await this.deps(request.corpusId, provider), { signal: jobSignal, onEvent: (event) => this.emit({ type: 'run', event }) }),
    );
  }

  runBatch({ provider, ...request }: BatchRunRequest, onEvent?: Listener, signal?: AbortSignal): Promise<SavedBatchRun> {
    return this.job(onEvent, signal, async (jobSignal) => runBatch(request, await this.deps(request.corpusId, provider), this.batchOptions(jobSignal)));
  }

  resumeBatch(runId: string, provider: LlmProviderSettings, onEvent?: Listener, signal?: AbortSignal): Promise<SavedBatchRun> {
    return this.job(onEvent, signal, async (jobSignal) => {
      const saved = await this.env.runs.get(runId);
      return resumeBatch(runId, await this.deps(saved?.corpusId ?? '', provider), this.batchOptions(jobSignal));
    });
  }

  async testConnection(provider: LlmProviderSettings, onEvent?: Listener): Promise<ConnectionTestResult> {
    if (!this.controller) this.listener = onEvent; // a running job keeps its listener
    try {
      const llm = this.provider(provider);
      return llm.testConnection ? await llm.testConnection() : { ok: true, message: 'This provider has no connection test.' };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  forget(corpusId: string): void {
    this.env.forget?.(corpusId);
  }

  private batchOptions(signal: AbortSignal) {
    return {
      signal,
      withLock: this.env.withLock,
      onStarted: (run: SavedBatchRun) => this.emit({ type: 'batch-started', run }),
      onItem: (item: BatchItem, runId: string) => this.emit({ type: 'batch-item', item, runId }),
      onProgress: (progress: BatchProgress) => this.emit({ type: 'batch-progress', progress }),
    };
  }

  /** One job at a time; `signal` (the caller's, through the abort bridge) stops it. */
  private async job<T>(onEvent: Listener, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.controller) throw new Error('Another run is in progress; cancel it or wait for it to finish.');
    const controller = new AbortController();
    this.controller = controller;
    this.listener = onEvent;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      return await work(controller.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.controller = null;
      this.listener = undefined;
    }
  }

  private emit(event: HdsWorkerEvent): void {
    try {
      this.listener?.(event);
    } catch {
      // the page may have gone away; the job goes on and is saved
    }
  }

  private async deps(corpusId: string, provider: LlmProviderSettings): Promise<AgentRunDeps> {
    const { corpora, runs, clock } = this.env;
    const environment = await this.env.environment?.(corpusId);
    return { corpora, runs, resources: this.env.resources(corpusId), llm: this.provider(provider), sampling: samplingOf(provider), clock, ...(environment ? { environment } : {}) };
  }

  private provider(settings: LlmProviderSettings): LlmProvider {
    const host: ProviderHost = { ...this.env.host, onModelProgress: (progress) => this.emit({ type: 'model-progress', progress }) };
    if (settings.kind !== 'transformers') return createLlmProvider(settings, host);
    // The system message is part of each request, not of the loaded model: changing it keeps the model loaded.
    const { systemPrompt: _system, ...model } = settings;
    const key = JSON.stringify(model);
    if (this.inBrowser?.key !== key) this.inBrowser = { key, provider: createLlmProvider(settings, host) };
    return this.inBrowser.provider;
  }
}
