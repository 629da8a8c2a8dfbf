import type {
  BatchItem,
  BatchProgress,
  BatchRequest,
  ConnectionTestResult,
  HdsEvent,
  LlmProviderSettings,
  ModelLoadProgress,
  QuestionRequest,
  SavedBatchRun,
  SavedQuestionRun,
} from '../core/index.ts';
import type { VectorShareTarget } from './vector-share.ts';

/** The core's QuestionRequest with the model, key included (held in memory only; the saved run records its description). */
export interface QuestionRunRequest extends QuestionRequest {
  provider: LlmProviderSettings;
}

/** The core's BatchRequest with the model, key included (memory only). */
export interface BatchRunRequest extends BatchRequest {
  provider: LlmProviderSettings;
}

/** What a running job reports. */
export type HdsWorkerEvent =
  | { type: 'run'; event: HdsEvent }
  | { type: 'model-progress'; progress: ModelLoadProgress }
  | { type: 'batch-started'; run: SavedBatchRun }
  | { type: 'batch-progress'; progress: BatchProgress }
  | { type: 'batch-item'; item: BatchItem; runId: string };

/**
 * The HDS worker, through comlink: the core's `runQuestion`, `runBatch` and `resumeBatch`. One job at a time;
 * `abortPort` (see abort-bridge.ts) cancels it, the partial run saved as cancelled.
 */
export interface HdsWorkerApi extends VectorShareTarget {
  /** Runs one question and saves the run (completed, cancelled or failed); rejects for invalid settings. */
  runQuestion(request: QuestionRunRequest, onEvent?: (event: HdsWorkerEvent) => void, abortPort?: MessagePort): Promise<SavedQuestionRun>;
  /** Saves a new batch as running, runs it, saving after every question. */
  runBatch(request: BatchRunRequest, onEvent?: (event: HdsWorkerEvent) => void, abortPort?: MessagePort): Promise<SavedBatchRun>;
  /** Continues a saved batch (interrupted or cancelled) with the same model, which `provider` must name. */
  resumeBatch(runId: string, provider: LlmProviderSettings, onEvent?: (event: HdsWorkerEvent) => void, abortPort?: MessagePort): Promise<SavedBatchRun>;
  /** Checks the model settings (an in-browser model is downloaded and loaded). */
  testConnection(provider: LlmProviderSettings, onEvent?: (event: HdsWorkerEvent) => void): Promise<ConnectionTestResult>;
  /** Drops cached indexes of a corpus (after it is deleted). */
  forget(corpusId: string): void;
}
