import { isAbortError } from '../abort/index.ts';
import { runAgent, type AgentMethod, type AgentRun, type AgentSettings } from './agent-run.ts';
import type { HdsConfig } from './config.ts';
import { goldDocumentIds, scoreAgentRun, type QuestionMetrics } from './question-metrics.ts';
import type { AgentDeps, HdsEvent } from './types.ts';

/** One question of a question set, with what is known about its answer. */
export interface BatchQuestion {
  /** Query id in the corpus. */
  id: string;
  /** The question text. */
  text: string;
  /** Accepted answers (first = canonical). */
  answers: string[];
  /** Qrels of the question: document id → relevance. */
  relevance: Record<string, number>;
}

/** The HDS budget settings a scaling sweep varies. */
export type BudgetParam = 'maxTurns' | 'maxSearchCalls';

/** One method with its settings, run over every question of a batch. */
export interface BatchVariant {
  /** Unique within the batch. */
  id: string;
  /** Column / legend label. */
  label: string;
  /** The method. */
  method: AgentMethod;
  /** Its settings (only the method's own entry is read). */
  settings: AgentSettings;
  /** Set on the variants of a budget sweep: the HDS setting varied and its value here. */
  sweep?: { param: BudgetParam; value: number };
}

/** The outcome of one question under one variant. */
export interface BatchItem extends QuestionMetrics {
  /** The question. */
  questionId: string;
  /** The variant. */
  variantId: string;
  /** Outcome of the run (cancelled runs are not kept: a resumed batch runs them again). */
  status: 'completed' | 'failed';
  /** The final answer ('' when none). */
  answer: string;
  /** Plain-words reason, when failed. */
  error?: string;
  /** The whole run record (replayable). */
  run: AgentRun;
}

/** Means of one variant over the questions it has run. */
export interface BatchAggregate {
  /** The variant. */
  variantId: string;
  /** Questions run (completed or failed). */
  questions: number;
  /** Of which failed. */
  failed: number;
  /** Mean exact match over the questions with gold answers; null when none. */
  em: number | null;
  /** Mean token F1 over the questions with gold answers; null when none. */
  f1: number | null;
  /** Mean exact match counting marked answers only (H12 strict); null when none. */
  strictEm?: number | null;
  /** Mean token F1 counting marked answers only (H12 strict); null when none. */
  strictF1?: number | null;
  /** Questions whose scored answer was extracted from an unmarked reply (H12). */
  extracted?: number;
  /** Mean evidence recall over the questions with judged documents; null when none. */
  evidenceRecall: number | null;
  /** Mean LLM calls per question. */
  turns: number;
  /** Mean retrieval calls per question. */
  searchCalls: number;
  /** Mean wall time per question, ms. */
  latencyMs: number;
  /** Mean tokens per question (total). */
  tokens: number;
}

/** Progress of a batch. */
export interface BatchProgress {
  /** Question × variant pairs done (including those done before a resume). */
  done: number;
  /** All pairs. */
  total: number;
  /** The pair now running, when one is. */
  current?: { questionId: string; variantId: string };
}

/** Options of {@link runBatchItems}. */
export interface RunBatchOptions {
  /** Items already done (a resumed batch): their pairs are skipped unless failed and `retryFailed`. */
  done?: readonly BatchItem[];
  /** Run failed pairs of `done` again (default true). */
  retryFailed?: boolean;
  /** Stop the batch after this many failed runs in a row (default 3): the model server is probably down. */
  maxConsecutiveFailures?: number;
  /** Aborting stops the running question at once; the batch resolves as cancelled. */
  signal?: AbortSignal;
  /** Receives each finished item, in order (store it here; awaited before the next starts). */
  onItem?: (item: BatchItem) => void | Promise<void>;
  /** Progress before each pair and after the last. */
  onProgress?: (progress: BatchProgress) => void;
  /** Live events of the HDS runs. */
  onEvent?: (event: HdsEvent, questionId: string, variantId: string) => void;
}

/** How a batch ended. */
export interface BatchOutcome {
  /** `failed`: stopped after too many failures in a row. */
  status: 'completed' | 'cancelled' | 'failed';
  /** Every item, the earlier ones included, in question-then-variant order. */
  items: BatchItem[];
  /** Plain-words reason, when failed. */
  error?: string;
}

/** The key of a question × variant pair. */
export function batchKey(questionId: string, variantId: string): string {
  return JSON.stringify([questionId, variantId]);
}

/**
 * Runs every variant on every question, question by question (so that a partial batch compares the variants on
 * the same questions). Resumable: pass the items already done.
 */
export async function runBatchItems(
  questions: readonly BatchQuestion[],
  variants: readonly BatchVariant[],
  deps: Omit<AgentDeps, 'relevance'>,
  options: RunBatchOptions = {},
): Promise<BatchOutcome> {
  const { signal } = options;
  const retryFailed = options.retryFailed ?? true;
  const maxFailures = Math.max(1, options.maxConsecutiveFailures ?? 3);
  const kept = new Map<string, BatchItem>();
  for (const item of options.done ?? []) {
    if (item.status === 'completed' || !retryFailed) kept.set(batchKey(item.questionId, item.variantId), item);
  }
  const total = questions.length * variants.length;
  const ordered = (): BatchItem[] =>
    questions.flatMap((q) => variants.map((v) => kept.get(batchKey(q.id, v.id))).filter((i): i is BatchItem => !!i));
  let failuresInRow = 0;
  for (const question of questions) {
    for (const variant of variants) {
      const key = batchKey(question.id, variant.id);
      if (kept.has(key)) continue;
      if (signal?.aborted) return { status: 'cancelled', items: ordered() };
      options.onProgress?.({ done: kept.size, total, current: { questionId: question.id, variantId: variant.id } });
      let run: AgentRun;
      try {
        run = await runAgent(
          variant.method,
          question.text,
          variant.settings,
          { ...deps, relevance: (id) => (Object.hasOwn(question.relevance, id) ? question.relevance[id] : undefined), goldIds: goldDocumentIds(question.relevance) },
          { signal, onEvent: (event) => options.onEvent?.(event, question.id, variant.id) },
        );
      } catch (err) {
        if (isAbortError(err) && signal?.aborted) return { status: 'cancelled', items: ordered() };
        throw err; // invalid settings: every pair would fail the same way
      }
      if (run.status === 'cancelled') return { status: 'cancelled', items: ordered() };
      const item: BatchItem = {
        questionId: question.id,
        variantId: variant.id,
        status: run.status,
        answer: run.answer,
        ...(run.error !== undefined ? { error: run.error } : {}),
        ...scoreAgentRun(run, question),
        run,
      };
      kept.set(key, item);
      await options.onItem?.(item);
      failuresInRow = item.status === 'failed' ? failuresInRow + 1 : 0;
      if (failuresInRow >= maxFailures) {
        return {
          status: 'failed',
          items: ordered(),
          error: `Stopped after ${failuresInRow} failed runs in a row; the last: ${item.error ?? 'unknown error'}`,
        };
      }
    }
  }
  options.onProgress?.({ done: kept.size, total });
  return { status: 'completed', items: ordered() };
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Means of one variant's items (failed runs count, with their empty answers). */
export function aggregateBatch(items: readonly BatchItem[], variantId: string): BatchAggregate {
  const mine = items.filter((i) => i.variantId === variantId);
  const scored = (pick: (i: BatchItem) => number | null) =>
    mean(mine.map(pick).filter((v): v is number => v !== null));
  return {
    variantId,
    questions: mine.length,
    failed: mine.filter((i) => i.status === 'failed').length,
    em: scored((i) => i.em),
    f1: scored((i) => i.f1),
    strictEm: scored((i) => i.strictEm ?? null),
    strictF1: scored((i) => i.strictF1 ?? null),
    extracted: mine.filter((i) => i.answerSource === 'extracted').length,
    evidenceRecall: scored((i) => i.evidenceRecall),
    turns: mean(mine.map((i) => i.turns)) ?? 0,
    searchCalls: mean(mine.map((i) => i.searchCalls)) ?? 0,
    latencyMs: mean(mine.map((i) => i.latencyMs)) ?? 0,
    tokens: mean(mine.map((i) => i.tokens.totalTokens)) ?? 0,
  };
}

/** HDS variants that differ only in one budget setting, for a scaling chart. */
export function budgetSweepVariants(param: BudgetParam, values: readonly number[], base: Partial<HdsConfig>): BatchVariant[] {
  const name = param === 'maxTurns' ? 'max_turns' : 'max_search_calls';
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (distinct.length === 0) throw new Error(`Give at least one ${name} value`);
  for (const v of distinct) if (!Number.isInteger(v) || v < 1) throw new Error(`${name} values must be whole numbers ≥ 1, got ${v}`);
  return distinct.map((value) => ({
    id: `hds-${param}-${value}`,
    label: `HDS ${name}=${value}`,
    method: 'hds',
    settings: { hds: { ...base, [param]: value } },
    sweep: { param, value },
  }));
}
