// Asking a question and running a question set, over a stored corpus, saving the HDS record as it goes.
import { runEnvironment, type RunEnvironment, type RunEnvironmentSource } from '../runs/index.ts';
import { isValidAnswerList } from '../eval/index.ts';
import {
  runAgent, type AgentMethod, type AgentSettings, type AgentRunStore, aggregateBatch, runBatchItems, type BatchItem,
  type BatchProgress, type BatchQuestion, type BatchVariant, cutPassage, passageRetriever, goldDocumentIds,
  scoreAgentRun, newSavedRunId, type SavedBatchRun, type SavedLlm, type SavedQuestionRun, type SavedRetriever,
  type HdsEvent,
} from '../hds/index.ts';
import { documentText } from '../embedding/index.ts';
import { samplingSettingsOf, type LlmProvider, type SamplingSettings } from '../llm/index.ts';
import { buildRetriever, type RetrievalResources, describePipeline, type PipelineSpec } from '../retrieval/index.ts';
import type { CorpusRecord, CorpusStore } from '../storage/index.ts';
import { idRecord } from '../ids/index.ts';

/** What the agent use cases run on. */
export interface AgentRunDeps {
  corpora: CorpusStore;
  runs: AgentRunStore;
  /** Indexes and vectors of the corpus. */
  resources: RetrievalResources;
  /** The model. */
  llm: LlmProvider;
  /** Sampling settings sent to the model, recorded with it (never a key). `systemPrompt` goes to the HDS plan calls only. */
  sampling?: SamplingSettings & { systemPrompt?: string };
  /** Cut every passage text the agents see to at most this many characters (the ranking is unchanged); recorded as `retriever.passageChars`. */
  passageChars?: number;
  /** ms since the epoch (tests pin it). */
  clock?: () => number;
  /** The host and the models' file hashes, recorded on every saved run. */
  environment?: RunEnvironmentSource;
}

/** One question, one method. */
export interface QuestionRequest {
  corpusId: string;
  /** The retriever. */
  spec: PipelineSpec;
  method: AgentMethod;
  settings: AgentSettings;
  /** The question as typed or picked. */
  question: string;
  /** The corpus query it came from: its gold answers and qrels mark results and score the answer. */
  questionId?: string;
}

/** A question set with one or more variants. */
export interface BatchRequest {
  corpusId: string;
  /** The retriever. */
  spec: PipelineSpec;
  /** Methods with their settings. */
  variants: BatchVariant[];
  /** Only these questions, in this order (default: every query with answers). */
  questionIds?: string[];
  /** Name of the saved run (default: `batchRunName`). */
  name?: string;
}

export interface QuestionRunOptions {
  signal?: AbortSignal;
  onEvent?(event: HdsEvent): void;
}

export interface BatchRunOptions {
  signal?: AbortSignal;
  /** The batch as first saved (status `running`). */
  onStarted?(run: SavedBatchRun): void;
  /** Each finished pair, after it is saved. */
  onItem?(item: BatchItem, runId: string): void;
  onProgress?(progress: BatchProgress): void;
  /** Runs the batch holding a lock of this name (Web Locks in browsers), so other tabs can tell it is alive. */
  withLock?<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** The Web Lock a running batch holds, so pages can tell a live batch from one interrupted by a closed tab. */
export function batchLockName(runId: string): string {
  return `dsw-hds-batch:${runId}`;
}

/** The name a question run is saved under: the question, shortened. */
export function questionRunName(question: string): string {
  return question.length > 80 ? `${question.slice(0, 77)}…` : question;
}

/** The name a batch is saved under: the one given, else what it runs. */
export function batchRunName(questionCount: number, variants: readonly BatchVariant[], name?: string): string {
  return name?.trim() || `${questionCount} questions × ${variants.map((v) => v.label).join(', ')}`;
}

/** The retriever as a saved run records it. */
export function savedRetrieverOf(spec: PipelineSpec, config?: Readonly<Record<string, unknown>>): SavedRetriever {
  return { spec, label: describePipeline(spec), ...(config ? { config } : {}) };
}

/** A corpus's queries as questions, with their gold answers and qrels; with `answeredOnly`, only those with answers. */
export async function datasetQuestions(corpora: CorpusStore, corpusId: string, answeredOnly = true): Promise<BatchQuestion[]> {
  const [queries, qrels] = await Promise.all([corpora.getQueries(corpusId), corpora.getQrels(corpusId)]);
  const relevance = new Map<string, Record<string, number>>();
  for (const q of qrels) {
    let map = relevance.get(q.queryId);
    if (!map) relevance.set(q.queryId, (map = idRecord()));
    map[q.docId] = q.relevance;
  }
  return queries
    .filter((q) => !answeredOnly || isValidAnswerList(q.answers))
    .map((q) => ({ id: q.id, text: q.text, answers: q.answers ?? [], relevance: relevance.get(q.id) ?? {} }));
}

function environmentOf(deps: AgentRunDeps, spec: PipelineSpec): { environment?: RunEnvironment } {
  return deps.environment ? { environment: runEnvironment(deps.environment.host, spec, deps.environment.modelFiles) } : {};
}

/** Runs one question with one method and saves the run (completed, cancelled or failed); rejects for invalid settings. */
export async function runQuestion(request: QuestionRequest, deps: AgentRunDeps, options: QuestionRunOptions = {}): Promise<SavedQuestionRun> {
  const corpus = await storedCorpus(deps.corpora, request.corpusId);
  const gold = request.questionId ? (await datasetQuestions(deps.corpora, corpus.id, false)).find((q) => q.id === request.questionId) : undefined;
  const { retriever, saved, getTexts } = await agentRetriever(request.spec, corpus.id, deps);
  const run = await runAgent(
    request.method,
    request.question,
    request.settings,
    { llm: deps.llm, retriever, getTexts, ...systemPromptOf(deps), ...(gold ? { relevance: (id: string) => (Object.hasOwn(gold.relevance, id) ? gold.relevance[id] : undefined), goldIds: goldDocumentIds(gold.relevance) } : {}) },
    { signal: options.signal, onEvent: options.onEvent },
  );
  const now = (deps.clock ?? Date.now)();
  const record: SavedQuestionRun = {
    id: newSavedRunId(),
    type: 'question',
    name: questionRunName(request.question),
    corpusId: corpus.id,
    corpusName: corpus.name,
    createdAt: now,
    updatedAt: now,
    status: run.status,
    llm: savedLlmOf(deps),
    retriever: saved,
    ...environmentOf(deps, request.spec),
    method: request.method,
    ...(gold ? { questionId: gold.id, answers: gold.answers, relevance: gold.relevance } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    metrics: scoreAgentRun(run, gold),
    run,
  };
  await deps.runs.save(record);
  return record;
}

/** Saves a new batch as running, then runs it, saving after every pair; ends saved as completed, cancelled or failed. */
export async function runBatch(request: BatchRequest, deps: AgentRunDeps, options: BatchRunOptions = {}): Promise<SavedBatchRun> {
  if (request.variants.length === 0) throw new Error('Choose at least one method to run.');
  const corpus = await storedCorpus(deps.corpora, request.corpusId);
  let questions = await datasetQuestions(deps.corpora, corpus.id);
  if (request.questionIds) {
    const byId = new Map(questions.map((q) => [q.id, q]));
    questions = request.questionIds.map((id) => byId.get(id)).filter((q): q is BatchQuestion => !!q);
  }
  if (questions.length === 0) throw new Error(`“${corpus.name}” has no questions with gold answers to run.`);
  const { saved } = await agentRetriever(request.spec, corpus.id, deps);
  const now = (deps.clock ?? Date.now)();
  const record: SavedBatchRun = {
    id: newSavedRunId(),
    type: 'batch',
    name: batchRunName(questions.length, request.variants, request.name),
    corpusId: corpus.id,
    corpusName: corpus.name,
    createdAt: now,
    updatedAt: now,
    status: 'running',
    llm: savedLlmOf(deps),
    retriever: saved,
    ...environmentOf(deps, request.spec),
    questions,
    variants: request.variants,
    items: [],
    aggregates: request.variants.map((v) => aggregateBatch([], v.id)),
  };
  await deps.runs.save(record);
  options.onStarted?.(record);
  return continueBatch(record, deps, options);
}

/** Continues a saved batch (interrupted or cancelled); `deps.llm` must be the model it was run with. */
export async function resumeBatch(runId: string, deps: AgentRunDeps, options: BatchRunOptions = {}): Promise<SavedBatchRun> {
  const saved = await deps.runs.get(runId);
  if (!saved || saved.type !== 'batch') throw new Error('This batch is no longer saved.');
  if (saved.status === 'completed') throw new Error('This batch is already complete.');
  const current = deps.llm.describe();
  if (current.model !== saved.llm.model || current.baseUrl !== saved.llm.baseUrl || current.provider !== saved.llm.provider) {
    const where = saved.llm.baseUrl ? ` at ${saved.llm.baseUrl}` : '';
    throw new Error(`This batch was run with the model “${saved.llm.model}”${where}; choose it in the model settings to resume, so that every question is answered by the same model.`);
  }
  const running: SavedBatchRun = { ...saved, status: 'running', updatedAt: (deps.clock ?? Date.now)() };
  delete running.error;
  await deps.runs.save(running);
  options.onStarted?.(running);
  return continueBatch(running, deps, options);
}

async function continueBatch(saved: SavedBatchRun, deps: AgentRunDeps, options: BatchRunOptions): Promise<SavedBatchRun> {
  const work = async () => {
    const { retriever, getTexts } = await agentRetriever(saved.retriever.spec, saved.corpusId, deps);
    let record = saved;
    const store = async (patch: Partial<SavedBatchRun>) => {
      record = { ...record, ...patch, updatedAt: (deps.clock ?? Date.now)() };
      record.aggregates = record.variants.map((v) => aggregateBatch(record.items, v.id));
      await deps.runs.save(record);
    };
    try {
      const outcome = await runBatchItems(record.questions, record.variants, { llm: deps.llm, retriever, getTexts, ...systemPromptOf(deps) }, {
        done: record.items,
        signal: options.signal,
        onItem: async (item) => {
          await store({ items: [...record.items.filter((i) => !(i.questionId === item.questionId && i.variantId === item.variantId)), item] });
          options.onItem?.(item, record.id);
        },
        onProgress: options.onProgress,
      });
      await store({ status: outcome.status, items: outcome.items, ...(outcome.error ? { error: outcome.error } : {}) });
    } catch (error) {
      await store({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
    return record;
  };
  return options.withLock ? options.withLock(batchLockName(saved.id), work) : work();
}

async function storedCorpus(corpora: CorpusStore, corpusId: string): Promise<CorpusRecord> {
  const corpus = await corpora.getCorpus(corpusId);
  if (!corpus) throw new Error('This corpus is no longer stored; choose another one.');
  return corpus;
}

async function agentRetriever(spec: PipelineSpec, corpusId: string, deps: AgentRunDeps) {
  const pipeline = await buildRetriever(spec, deps.resources);
  const passageChars = deps.passageChars;
  const lookup = (ids: readonly string[]) => deps.corpora.getDocuments(corpusId, [...ids]);
  const retriever = passageRetriever(pipeline, lookup, passageChars === undefined ? {} : { passageChars });
  // Texts of passages by id (the oracle-context baseline's gold passages), cut as the retriever cuts them.
  const getTexts = async (ids: string[]) => (await lookup(ids)).map((doc) => (doc ? shownPassage(documentText(doc), passageChars) : ''));
  return { retriever, getTexts, saved: { ...savedRetrieverOf(spec, pipeline.config), ...(passageChars === undefined ? {} : { passageChars }) } };
}

function savedLlmOf(deps: AgentRunDeps): SavedLlm {
  const { systemPrompt, ...sampling } = deps.sampling ?? {};
  return {
    ...deps.llm.describe(),
    ...samplingSettingsOf(sampling),
    ...(deps.llm.canContinueAssistant ? { assistantPrefill: true } : {}),
    ...(systemPrompt?.trim() ? { systemPrompt: systemPrompt.trim(), systemPromptScope: 'hds-plan' as const } : {}),
  };
}

/** The system message of `deps.sampling` for the agents (HDS sends it; the baselines ignore it). */
function systemPromptOf(deps: AgentRunDeps): { systemPrompt?: string } {
  const system = deps.sampling?.systemPrompt?.trim();
  return system ? { systemPrompt: system } : {};
}

function shownPassage(text: string, passageChars: number | undefined): string {
  return passageChars === undefined ? text : cutPassage(text, passageChars);
}
