import { abortError, isAbortError } from '../abort/index.ts';
import { sumUsage } from '../llm/index.ts';
import { scoredAnswer } from './answer-rule.ts';
import { effectiveK, resolveHdsConfig, type HdsConfig } from './config.ts';
import { finalAnswerCall } from './final-call.ts';
import { planTurn } from './plan-turn.ts';
import { questionSearch } from './question-search.ts';
import { scheduleQueries } from './query-schedule.ts';
import type { HdsRunContext } from './run-context.ts';
import { FanOutFailure, retrieveTurn } from './turn-retrieval.ts';
import { HDS_PROTOCOL, type AgentDeps, type HdsEvent, type HdsRun, type HdsRunOptions, type HdsTurnRecord } from './types.ts';

/** A run that could not finish (LLM error, retrieval failure without partial failures allowed). Carries the partial run. */
export class HdsRunError extends Error {
  /** The run up to the failure, `status` `failed`. */
  readonly run: HdsRun;

  constructor(message: string, run: HdsRun, cause?: unknown) {
    super(message, { cause });
    this.name = 'HdsRunError';
    this.run = run;
  }
}

/**
 * Runs the Hybrid Deep Searcher loop for one question (the reference loop with decisions H1–H12, docs/decisions.md):
 * the question's own search when `questionSearchK` > 0 ({@link questionSearch}), then plan turns ({@link planTurn}) whose query blocks are scheduled ({@link scheduleQueries}) and retrieved
 * ({@link retrieveTurn}) until an answer, `max_turns`, `max_search_calls` or (`repeatedBlock: 'answer'`) a block
 * that only repeats; then, without an answer, the final prompt
 * ({@link finalAnswerCall}). Resolves with the run (completed or cancelled); rejects with `HdsRunError` (carrying the
 * partial run) on failure, or `HdsConfigError` for an invalid configuration.
 */
export async function runHds(question: string, config: Partial<HdsConfig>, deps: AgentDeps, options: HdsRunOptions = {}): Promise<HdsRun> {
  const cfg = resolveHdsConfig(config);
  if (!deps?.retriever || typeof deps.retriever.search !== 'function') {
    throw new Error('Retrieval pipeline not injected: runHds needs deps.retriever');
  }
  if (!deps.llm || typeof deps.llm.complete !== 'function') throw new Error('LLM not injected: runHds needs deps.llm');
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  const run: HdsRun = {
    kind: 'hds',
    protocol: HDS_PROTOCOL,
    question,
    config: cfg,
    llm: deps.llm.describe(),
    status: 'completed',
    terminatedBy: 'max_turns',
    answer: '',
    interactionLog: [],
    retrievedIds: [],
    retrievalFailures: [],
    searchCallsUsed: 0,
    tokenUsage: sumUsage([]),
    turns: [],
    startedAt: new Date().toISOString(),
    durationMs: 0,
  };
  const ctx: HdsRunContext = {
    cfg,
    deps,
    signal: options.signal,
    at: () => now() - t0,
    emit: (event: HdsEvent) => {
      try {
        options.onEvent?.(event);
      } catch {
        // a faulty listener must not break the run
      }
    },
    run,
    k: effectiveK(cfg),
    firstTurnOf: new Map(),
  };
  ctx.emit({ type: 'run-start', question, config: cfg, startedAt: run.startedAt });

  const progress: { open?: HdsTurnRecord } = {};
  try {
    if (cfg.questionSearchK > 0) await questionSearch(ctx);
    await searchLoop(ctx, progress);
    // An empty answer (no answer, `\boxed{}`, an empty response) goes to the final prompt (the reference's fallback).
    if (run.answer === '' && cfg.fallbackToFinalPrompt) {
      if (ctx.signal?.aborted) throw abortError();
      await finalAnswerCall(ctx);
      run.terminatedBy = `${run.terminatedBy as 'answer' | 'max_turns' | 'max_search_calls' | 'repeated_block'}_fallback`;
    }
  } catch (err) {
    if (isAbortError(err) && ctx.signal?.aborted) {
      run.status = 'cancelled';
      run.terminatedBy = 'cancelled';
      if (progress.open) progress.open.status = 'cancelled';
    } else {
      run.status = 'failed';
      run.terminatedBy = 'failed';
      run.error = err instanceof Error ? err.message : String(err);
      if (progress.open) progress.open.status = 'failed';
      finish(ctx);
      throw new HdsRunError(run.error, run, err instanceof FanOutFailure ? undefined : err);
    }
  }
  finish(ctx);
  return run;
}

/** Plan turns until an answer, `max_turns`, `max_search_calls` or a block of repeats under `repeatedBlock: 'answer'`; `progress.open` is the turn in progress, if any. */
async function searchLoop(ctx: HdsRunContext, progress: { open?: HdsTurnRecord }): Promise<void> {
  const { cfg, run, signal, emit } = ctx;
  for (let turnNo = 1; turnNo <= cfg.maxTurns; turnNo++) {
    if (signal?.aborted) throw abortError();
    const remaining = cfg.maxSearchCalls - run.searchCallsUsed;
    if (remaining <= 0) {
      run.terminatedBy = 'max_search_calls';
      break;
    }
    const pending = planTurn(ctx, turnNo, remaining);
    progress.open = run.turns.at(-1); // planTurn records the turn before it waits for the model
    const { turn, parsed } = await pending;
    if (parsed.action.kind === 'answer') {
      run.answer = parsed.action.text;
      run.terminatedBy = 'answer';
      emit({ type: 'turn-end', turn: turnNo, record: turn });
      progress.open = undefined;
      return;
    }
    const schedule = scheduleQueries([...parsed.action.queries, ...parsed.queriesOverCap], ctx.firstTurnOf, cfg.maxParallelQueries, remaining);
    turn.queriesExecuted = schedule.executed;
    turn.queriesRepeated = schedule.repeated;
    turn.queriesCutByCap = schedule.cutByCap;
    turn.queriesCutByBudget = schedule.cutByBudget;
    if (schedule.executed.length === 0 && schedule.repeated.length > 0) turn.onlyRepeats = true;
    emit({
      type: 'queries',
      turn: turnNo,
      executed: turn.queriesExecuted,
      repeated: turn.queriesRepeated,
      cutByCap: turn.queriesCutByCap,
      cutByBudget: turn.queriesCutByBudget,
      k: ctx.k,
    });
    await retrieveTurn(ctx, turn, schedule, parsed.tokenSpelling ?? 'spaces');
    if (signal?.aborted) throw abortError();
    emit({ type: 'turn-end', turn: turnNo, record: turn });
    progress.open = undefined;
    if (turn.onlyRepeats && cfg.repeatedBlock === 'answer') {
      run.terminatedBy = 'repeated_block';
      break;
    }
    if (run.searchCallsUsed >= cfg.maxSearchCalls) {
      run.terminatedBy = 'max_search_calls';
      break;
    }
  }
}

function finish(ctx: HdsRunContext): void {
  const { run } = ctx;
  run.tokenUsage = sumUsage([...run.turns.map((t) => t.llm.usage), run.fallback?.usage]);
  run.durationMs = ctx.at();
  if (run.status === 'completed') run.scoredAnswer = scoredAnswer(run.answer, hdsAnswerIsMarked(run), run.question);
  ctx.emit({ type: 'done', run });
}

/** Whether an HDS run's answer came from a `\boxed{}` or `<answer>` marker (H3), not from unmarked text (H4, H8). */
export function hdsAnswerIsMarked(run: HdsRun): boolean {
  if (run.fallback) return run.fallback.marker === 'boxed' || run.fallback.marker === 'answer-tag';
  const last = run.turns.at(-1);
  return !!last && last.action?.kind === 'answer' && (last.marker === 'boxed' || last.marker === 'answer-tag');
}
