import type {
  AgentMethod,
  AgentSettings,
  BatchItem,
  BatchProgress,
  BatchVariant,
  ConnectionTestResult,
  HdsEvent,
  LlmProviderSettings,
  ModelLoadProgress,
  PipelineSpec,
  SavedBatchRun,
  SavedQuestionRun,
} from '../core/index.ts';

/** One question, one method. */
export interface QuestionRunRequest {
  /** The corpus searched. */
  corpusId: string;
  /** The retriever. */
  spec: PipelineSpec;
  /** The model, key included (held in memory only; the saved run records the description without it). */
  provider: LlmProviderSettings;
  /** The method. */
  method: AgentMethod;
  /** Its settings. */
  settings: AgentSettings;
  /** The question as typed or picked. */
  question: string;
  /** The corpus query it came from: its gold answers and qrels mark results and score the answer. */
  questionId?: string;
}

/** A question set with one or more variants. */
export interface BatchRunRequest {
  /** The corpus searched; its queries with answers are the questions. */
  corpusId: string;
  /** The retriever. */
  spec: PipelineSpec;
  /** The model, key included (memory only). */
  provider: LlmProviderSettings;
  /** Methods with their settings. */
  variants: BatchVariant[];
  /** Only these questions (default: every query with answers). */
  questionIds?: string[];
  /** Name of the saved run (default: generated). */
  name?: string;
}

/** What a running job reports. */
export type HdsWorkerEvent =
  | { type: 'run'; event: HdsEvent }
  | { type: 'model-progress'; progress: ModelLoadProgress }
  | { type: 'batch-started'; run: SavedBatchRun }
  | { type: 'batch-progress'; progress: BatchProgress }
  | { type: 'batch-item'; item: BatchItem; runId: string };

/** The HDS worker, through comlink. One job at a time. */
export interface HdsWorkerApi {
  /** Runs one question and saves the run (completed, cancelled or failed); rejects for invalid settings. */
  runQuestion(request: QuestionRunRequest, onEvent?: (event: HdsWorkerEvent) => void): Promise<SavedQuestionRun>;
  /** Saves a new batch as running, runs it, saving after every question. */
  runBatch(request: BatchRunRequest, onEvent?: (event: HdsWorkerEvent) => void): Promise<SavedBatchRun>;
  /** Continues a saved batch (interrupted or cancelled) with the same model, which `provider` must name. */
  resumeBatch(runId: string, provider: LlmProviderSettings, onEvent?: (event: HdsWorkerEvent) => void): Promise<SavedBatchRun>;
  /** Cancels the running job (the partial run is saved as cancelled). */
  cancel(): void;
  /** Checks the model settings (an in-browser model is downloaded and loaded). */
  testConnection(provider: LlmProviderSettings, onEvent?: (event: HdsWorkerEvent) => void): Promise<ConnectionTestResult>;
  /** Drops cached indexes of a corpus (after it is deleted). */
  forget(corpusId: string): void;
}

/** The Web Lock a running batch holds, so pages can tell a live batch from one interrupted by a closed tab. */
export function batchLockName(runId: string): string {
  return `dsw-hds-batch:${runId}`;
}
