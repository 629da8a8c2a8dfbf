import type { RunEnvironment } from '../runs/index.ts';
import { redactValue } from '../secrets/index.ts';
import type { LlmDescription, SamplingSettings } from '../llm/index.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import type { AgentMethod, AgentRun } from './agent-run.ts';
import type { BatchAggregate, BatchItem, BatchQuestion, BatchVariant } from './batch.ts';
import type { QuestionMetrics } from './question-metrics.ts';
import { newId } from '../ids/index.ts';

/** The model a saved run used: what `describe()` says plus the sampling settings. Never a key. */
export interface SavedLlm extends LlmDescription, SamplingSettings {
  /** System message, when set (a chat setting beyond the reference, which sends none); see `systemPromptScope`. */
  systemPrompt?: string;
  /**
   * Which calls got `systemPrompt`: `hds-plan` = the HDS plan calls only (H10: never the final prompt; each such
   * call also records it); `hds` = the HDS plan and final calls (runs saved before H10); absent on runs saved before
   * the scope existed, when every call (the baselines' too) got it. The baselines' calls never get it.
   */
  systemPromptScope?: 'hds' | 'hds-plan';
  /** The server was told it continues a trailing assistant message, so `finalAnswer: boxed-prefix` pre-filled it (H10). */
  assistantPrefill?: boolean;
}

/** The retriever a saved run used. */
export interface SavedRetriever {
  /** The pipeline as data (rebuilds the retriever). */
  spec: PipelineSpec;
  /** Short label, e.g. `BM25 k1=0.9 b=0.4`. */
  label: string;
  /** The retriever's full configuration (analyzer included), when known. */
  config?: Readonly<Record<string, unknown>>;
  /** Passage texts shown to the agents were cut to at most this many characters (absent: whole texts). */
  passageChars?: number;
}

/** Fields every saved run has. */
interface SavedRunCommon {
  /** Unique id. */
  id: string;
  /** Shown in lists; renamable. */
  name: string;
  /** The corpus searched. */
  corpusId: string;
  /** Its name when the run was made. */
  corpusName: string;
  /** ms since the epoch. */
  createdAt: number;
  /** ms since the epoch of the last change (batch progress). */
  updatedAt: number;
  /** `running`: a batch in progress, or one interrupted by a closed tab (then resumable). */
  status: 'running' | 'completed' | 'cancelled' | 'failed';
  /** The model. */
  llm: SavedLlm;
  /** The search tool. */
  retriever: SavedRetriever;
  /** Plain-words reason, when failed. */
  error?: string;
  /** The workbench, inference software, host and model file hashes behind the run (absent on older runs). */
  environment?: RunEnvironment;
}

/** One question run with one method. */
export interface SavedQuestionRun extends SavedRunCommon {
  type: 'question';
  /** The method. */
  method: AgentMethod;
  /** The corpus query id, when the question came from the corpus. */
  questionId?: string;
  /** Gold answers, when known. */
  answers?: string[];
  /** Qrels of the question, when known. */
  relevance?: Record<string, number>;
  /** Scores and costs. */
  metrics: QuestionMetrics;
  /** The whole run (replayable without a model). */
  run: AgentRun;
}

/** A question set run with one or more variants. */
export interface SavedBatchRun extends SavedRunCommon {
  type: 'batch';
  /** The questions, in run order. */
  questions: BatchQuestion[];
  /** The methods with their settings. */
  variants: BatchVariant[];
  /** Finished question × variant pairs (resume continues with the others). */
  items: BatchItem[];
  /** Means per variant over `items`. */
  aggregates: BatchAggregate[];
}

/** A saved run of either type. */
export type SavedAgentRun = SavedQuestionRun | SavedBatchRun;

/** A new unique id for a saved run. */
export function newSavedRunId(): string {
  return newId('run', 6);
}

/** Identifies an export file. */
export const AGENT_RUNS_FORMAT = 'dsw-agent-runs';

/** An export file: any number of saved runs, without secrets. */
export interface AgentRunsFile {
  format: typeof AGENT_RUNS_FORMAT;
  version: 1;
  /** ISO 8601. */
  exportedAt: string;
  /** The runs. */
  runs: SavedAgentRun[];
}

/**
 * A deep copy without anything secret: fields named like credentials (`apiKey`, `authorization`, `clientSecret`, …) are
 * dropped, and every occurrence of a known secret value in any string is replaced by `[redacted]`.
 */
export function stripSecrets<T>(value: T, secrets: readonly string[] = []): T {
  return redactValue(value, secrets);
}

/** The export file of `runs`, as JSON text, secrets removed. */
export function formatAgentRunsFile(runs: readonly SavedAgentRun[], secrets: readonly string[] = [], now = new Date()): string {
  const file: AgentRunsFile = {
    format: AGENT_RUNS_FORMAT,
    version: 1,
    exportedAt: now.toISOString(),
    runs: runs.map((r) => stripSecrets(r, secrets)),
  };
  return `${JSON.stringify(file, null, 1)}\n`;
}

/** Reads an export file; throws an Error in plain words when it is not one. Secret-named fields are dropped. */
export function parseAgentRunsFile(text: string): SavedAgentRun[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON, so it is not an exported run file.');
  }
  const file = json as Partial<AgentRunsFile> | null;
  if (!file || typeof file !== 'object' || file.format !== AGENT_RUNS_FORMAT) {
    throw new Error(`This JSON file is not an exported run file (expected "format": "${AGENT_RUNS_FORMAT}").`);
  }
  if (file.version !== 1) throw new Error(`Unsupported run file version ${String(file.version)}; this workbench reads version 1.`);
  if (!Array.isArray(file.runs)) throw new Error('The run file has no "runs" list.');
  return file.runs.map((run, i) => {
    const problem = savedRunProblem(run);
    if (problem) throw new Error(`Run ${i + 1} of the file is damaged: ${problem}.`);
    return stripSecrets(run);
  });
}

function savedRunProblem(run: unknown): string | null {
  if (!run || typeof run !== 'object') return 'it is not an object';
  const r = run as Partial<SavedAgentRun>;
  if (typeof r.id !== 'string' || r.id === '') return 'no id';
  if (typeof r.corpusId !== 'string') return 'no corpusId';
  if (r.type === 'question') {
    if (!r.run || typeof r.run !== 'object') return 'no run record';
    if (r.run.kind === 'hds' && !Array.isArray(r.run.turns)) return 'the HDS run has no turns';
    return null;
  }
  if (r.type === 'batch') {
    if (!Array.isArray(r.questions) || !Array.isArray(r.variants) || !Array.isArray(r.items)) return 'questions, variants or items missing';
    return null;
  }
  return `unknown type ${JSON.stringify((r as { type?: unknown }).type)}`;
}
