// The HDS worker's jobs, apart from the worker glue so they can be tested in Node.
import {
  aggregateBatch,
  buildRetriever,
  createLlmProvider,
  describePipeline,
  isValidAnswerList,
  newSavedRunId,
  passageRetriever,
  runAgent,
  runBatch,
  samplingOf,
  scoreAgentRun,
  type AgentDeps,
  type BatchQuestion,
  type ConnectionTestResult,
  type CorpusStore,
  type LlmProvider,
  type LlmProviderSettings,
  type ProviderHost,
  type RetrievalResources,
  type SavedBatchRun,
  type SavedQuestionRun,
  type SavedRetriever,
  type PipelineSpec,
} from '../core/index.ts';
import type { HdsStore } from '../storage/hds-store.ts';
import { batchLockName, type BatchRunRequest, type HdsWorkerApi, type HdsWorkerEvent, type QuestionRunRequest } from './hds-worker-api.ts';

/** What the jobs run on. */
export interface HdsJobsEnv {
  corpora: CorpusStore;
  runs: HdsStore;
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
}

type Listener = ((event: HdsWorkerEvent) => void) | undefined;

/** The HDS worker API over stored corpora and runs. */
export class HdsJobs implements HdsWorkerApi {
  private controller: AbortController | null = null;
  private listener: Listener;
  // In-browser models are loaded once and reused; HTTP providers are cheap to rebuild.
  private inBrowser: { key: string; provider: LlmProvider } | null = null;

  constructor(private readonly env: HdsJobsEnv) {}

  async runQuestion(request: QuestionRunRequest, onEvent?: Listener): Promise<SavedQuestionRun> {
    return this.job(onEvent, async (signal) => {
      const corpus = await this.corpus(request.corpusId);
      const gold = request.questionId ? await this.question(request.corpusId, request.questionId) : undefined;
      const { deps, retriever, llm } = await this.deps(request.corpusId, request.spec, request.provider);
      const run = await runAgent(
        request.method,
        request.question,
        request.settings,
        { ...deps, ...(gold ? { relevance: (id: string) => gold.relevance[id] } : {}) },
        { signal, onEvent: (event) => this.emit({ type: 'run', event }) },
      );
      const now = this.now();
      const saved: SavedQuestionRun = {
        id: newSavedRunId(),
        type: 'question',
        name: request.question.length > 80 ? `${request.question.slice(0, 77)}…` : request.question,
        corpusId: request.corpusId,
        corpusName: corpus.name,
        createdAt: now,
        updatedAt: now,
        status: run.status,
        llm: { ...llm.describe(), ...samplingOf(request.provider) },
        retriever,
        method: request.method,
        ...(gold ? { questionId: gold.id, answers: gold.answers, relevance: gold.relevance } : {}),
        ...(run.error !== undefined ? { error: run.error } : {}),
        metrics: scoreAgentRun(run, gold),
        run,
      };
      await this.env.runs.save(saved);
      return saved;
    });
  }

  async runBatch(request: BatchRunRequest, onEvent?: Listener): Promise<SavedBatchRun> {
    if (request.variants.length === 0) throw new Error('Choose at least one method to run.');
    return this.job(onEvent, async (signal) => {
      const corpus = await this.corpus(request.corpusId);
      let questions = await this.questions(request.corpusId);
      if (request.questionIds) {
        const wanted = new Set(request.questionIds);
        questions = questions.filter((q) => wanted.has(q.id));
      }
      if (questions.length === 0) throw new Error(`“${corpus.name}” has no questions with gold answers to run.`);
      const { retriever, llm } = await this.deps(request.corpusId, request.spec, request.provider);
      const now = this.now();
      const saved: SavedBatchRun = {
        id: newSavedRunId(),
        type: 'batch',
        name: request.name?.trim() || `${questions.length} questions × ${request.variants.map((v) => v.label).join(', ')}`,
        corpusId: request.corpusId,
        corpusName: corpus.name,
        createdAt: now,
        updatedAt: now,
        status: 'running',
        llm: { ...llm.describe(), ...samplingOf(request.provider) },
        retriever,
        questions,
        variants: request.variants,
        items: [],
        aggregates: request.variants.map((v) => aggregateBatch([], v.id)),
      };
      await this.env.runs.save(saved);
      this.emit({ type: 'batch-started', run: saved });
      return this.continueBatch(saved, request.provider, signal);
    });
  }

  async resumeBatch(runId: string, provider: LlmProviderSettings, onEvent?: Listener): Promise<SavedBatchRun> {
    return this.job(onEvent, async (signal) => {
      const saved = await this.env.runs.get(runId);
      if (!saved || saved.type !== 'batch') throw new Error('This batch is no longer saved.');
      if (saved.status === 'completed') throw new Error('This batch is already complete.');
      const current = createLlmProvider(provider, this.env.host).describe();
      if (current.model !== saved.llm.model || current.baseUrl !== saved.llm.baseUrl || current.provider !== saved.llm.provider) {
        const where = saved.llm.baseUrl ? ` at ${saved.llm.baseUrl}` : '';
        throw new Error(`This batch was run with the model “${saved.llm.model}”${where}; choose it in the model settings to resume, so that every question is answered by the same model.`);
      }
      const running: SavedBatchRun = { ...saved, status: 'running', updatedAt: this.now() };
      delete running.error;
      await this.env.runs.save(running);
      this.emit({ type: 'batch-started', run: running });
      return this.continueBatch(running, provider, signal);
    });
  }

  cancel(): void {
    this.controller?.abort();
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

  private async continueBatch(saved: SavedBatchRun, provider: LlmProviderSettings, signal: AbortSignal): Promise<SavedBatchRun> {
    const work = async () => {
      const { deps } = await this.deps(saved.corpusId, saved.retriever.spec, provider);
      let record = saved;
      const store = async (patch: Partial<SavedBatchRun>) => {
        record = { ...record, ...patch, updatedAt: this.now() };
        record.aggregates = record.variants.map((v) => aggregateBatch(record.items, v.id));
        await this.env.runs.save(record);
      };
      try {
        const outcome = await runBatch(record.questions, record.variants, deps, {
          done: record.items,
          signal,
          onItem: async (item) => {
            await store({ items: [...record.items.filter((i) => !(i.questionId === item.questionId && i.variantId === item.variantId)), item] });
            this.emit({ type: 'batch-item', item, runId: record.id });
          },
          onProgress: (progress) => this.emit({ type: 'batch-progress', progress }),
        });
        await store({ status: outcome.status, items: outcome.items, ...(outcome.error ? { error: outcome.error } : {}) });
      } catch (error) {
        await store({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
      }
      return record;
    };
    return this.env.withLock ? this.env.withLock(batchLockName(saved.id), work) : work();
  }

  private async job<T>(onEvent: Listener, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.controller) throw new Error('Another run is in progress; cancel it or wait for it to finish.');
    const controller = new AbortController();
    this.controller = controller;
    this.listener = onEvent;
    try {
      return await work(controller.signal);
    } finally {
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

  private now(): number {
    return (this.env.clock ?? Date.now)();
  }

  private provider(settings: LlmProviderSettings): LlmProvider {
    const host: ProviderHost = { ...this.env.host, onModelProgress: (progress) => this.emit({ type: 'model-progress', progress }) };
    if (settings.kind !== 'transformers') return createLlmProvider(settings, host);
    const key = JSON.stringify(settings);
    if (this.inBrowser?.key !== key) this.inBrowser = { key, provider: createLlmProvider(settings, host) };
    return this.inBrowser.provider;
  }

  private async deps(corpusId: string, spec: PipelineSpec, provider: LlmProviderSettings): Promise<{ deps: Omit<AgentDeps, 'relevance'>; retriever: SavedRetriever; llm: LlmProvider }> {
    const llm = this.provider(provider);
    const pipeline = await buildRetriever(spec, this.env.resources(corpusId));
    const retriever = passageRetriever(pipeline, (ids) => this.env.corpora.getDocuments(corpusId, ids));
    return { deps: { llm, retriever }, retriever: { spec, label: describePipeline(spec), config: pipeline.config }, llm };
  }

  private async corpus(corpusId: string) {
    const corpus = await this.env.corpora.getCorpus(corpusId);
    if (!corpus) throw new Error('This corpus is no longer stored; choose another one.');
    return corpus;
  }

  private async question(corpusId: string, questionId: string): Promise<BatchQuestion | undefined> {
    return (await this.questions(corpusId, true)).find((q) => q.id === questionId);
  }

  /** The corpus's questions with gold answers (or every query, with `all`), with their qrels. */
  private async questions(corpusId: string, all = false): Promise<BatchQuestion[]> {
    const [queries, qrels] = await Promise.all([this.env.corpora.getQueries(corpusId), this.env.corpora.getQrels(corpusId)]);
    const relevance = new Map<string, Record<string, number>>();
    for (const q of qrels) {
      let map = relevance.get(q.queryId);
      if (!map) relevance.set(q.queryId, (map = {}));
      map[q.docId] = q.relevance;
    }
    return queries
      .filter((q) => all || isValidAnswerList(q.answers))
      .map((q) => ({ id: q.id, text: q.text, answers: q.answers ?? [], relevance: relevance.get(q.id) ?? {} }));
  }
}
