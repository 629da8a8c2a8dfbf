import { abortError, isAbortError } from '../abort.ts';
import { sumUsage } from '../llm/usage.ts';
import { mapWithConcurrency, raceAbort } from './concurrency.ts';
import { effectiveK, resolveHdsConfig, type HdsConfig } from './config.ts';
import { joinReasoning, newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
import { extractFinalAnswer, parseHdsResponse, throughFirstQueryBlock } from './parse-action.ts';
import { renderFinalPrompt, renderPlanPrompt } from './prompts.ts';
import { mergeTurnResults, serializeResultsBlock, type ResultsBlockEntry } from './results-block.ts';
import { sanitizedRetrievalError } from './sanitize.ts';
import {
  HDS_PROTOCOL,
  type AgentDeps,
  type HdsEvent,
  type HdsFinalCallRecord,
  type HdsResultRecord,
  type HdsRetrievalRecord,
  type HdsRun,
  type HdsRunOptions,
  type HdsTurnRecord,
  type RetrievedPassage,
} from './types.ts';

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

/** Retrieval failures of a turn, when partial failures are not allowed (reference §1.5 message). */
class FanOutFailure extends Error {}

/**
 * Runs the Hybrid Deep Searcher loop (reference §1.3 with DECISIONS H1–H8) for one question.
 * Resolves with the run (completed or cancelled); rejects with `HdsRunError` (carrying the partial run) on failure,
 * or `HdsConfigError` for an invalid configuration.
 */
export async function runHds(
  question: string,
  config: Partial<HdsConfig>,
  deps: AgentDeps,
  options: HdsRunOptions = {},
): Promise<HdsRun> {
  const cfg = resolveHdsConfig(config);
  if (!deps?.retriever || typeof deps.retriever.search !== 'function') {
    throw new Error('Retrieval pipeline not injected: runHds needs deps.retriever');
  }
  if (!deps.llm || typeof deps.llm.complete !== 'function') throw new Error('LLM not injected: runHds needs deps.llm');
  const { signal } = options;
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  const at = () => now() - t0;
  const emit = (event: HdsEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a faulty listener must not break the run
    }
  };
  const k = effectiveK(cfg);
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
  emit({ type: 'run-start', question, config: cfg, startedAt: run.startedAt });
  const firstTurnOf = new Map<string, number>();

  const retrieveOne = async (turn: HdsTurnRecord, query: string, index: number): Promise<RetrievedPassage[]> => {
    const record: HdsRetrievalRecord = { query, index, k, status: 'cancelled', results: [], startMs: at(), endMs: at() };
    turn.retrievals[index] = record;
    if (signal?.aborted) return [];
    run.searchCallsUsed++;
    emit({ type: 'retrieval-start', turn: turn.turn, index, query, atMs: record.startMs });
    let passages: RetrievedPassage[] = [];
    try {
      passages = await raceAbort(deps.retriever.search(query, k, signal), signal);
      record.status = 'ok';
      record.results = passages.map((p, i) => {
        const result: HdsResultRecord = {
          id: p.id,
          score: p.score,
          text: p.text ? String(p.text) : '',
          shown: i < cfg.evidenceBudget && p.id !== undefined && p.id !== null,
        };
        if (p.title !== undefined) result.title = p.title;
        const relevance = deps.relevance?.(p.id);
        if (relevance !== undefined) result.relevance = relevance;
        return result;
      });
    } catch (err) {
      passages = [];
      if (signal?.aborted) {
        record.status = 'cancelled';
      } else {
        record.status = 'failed';
        record.error = sanitizedRetrievalError(err);
      }
    }
    record.endMs = at();
    emit({ type: 'retrieval-end', turn: turn.turn, index, record });
    return passages;
  };

  /** Fills empty texts of shown results with one `getTexts` call per query (reference §1.7 backfill). */
  const backfill = async (record: HdsRetrievalRecord) => {
    if (!deps.getTexts || record.status !== 'ok') return;
    const missing = record.results.filter((r) => r.shown && r.text === '');
    if (missing.length === 0) return;
    const texts = await raceAbort(
      deps.getTexts(
        missing.map((r) => r.id),
        signal,
      ),
      signal,
    );
    missing.forEach((r, i) => {
      const text = texts[i];
      r.text = text ? String(text) : '';
    });
  };

  let current: HdsTurnRecord | undefined;
  try {
    for (let turnNo = 1; turnNo <= cfg.maxTurns; turnNo++) {
      if (signal?.aborted) throw abortError();
      const remaining = cfg.maxSearchCalls - run.searchCallsUsed;
      if (remaining <= 0) {
        run.terminatedBy = 'max_search_calls';
        break;
      }
      const prompt = renderPlanPrompt(cfg.planPromptTemplate, {
        query: question,
        turn: turnNo,
        maxTurns: cfg.maxTurns,
        remainingSearchCalls: remaining,
        log: run.interactionLog,
      });
      const turn: HdsTurnRecord = {
        turn: turnNo,
        remainingSearchCalls: remaining,
        llm: newLlmCallRecord(prompt, at()),
        queriesExecuted: [],
        queriesRepeated: [],
        queriesCutByCap: [],
        queriesCutByBudget: [],
        k,
        retrievals: [],
        failures: [],
        status: 'complete',
      };
      current = turn;
      run.turns.push(turn);
      emit({ type: 'turn-start', turn: turnNo, phase: 'plan', prompt, atMs: turn.llm.startMs });

      const response = await recordedLlmCall(deps.llm, turn.llm, {
        at,
        signal,
        systemPrompt: deps.systemPrompt,
        onDelta: (d) => emit({ type: 'llm-delta', turn: turnNo, phase: 'plan', content: d.content, reasoning: d.reasoning }),
      });
      const parsed = parseHdsResponse(response.content, cfg.maxParallelQueries);
      // Extension log-cut-after-query-block: the log keeps the reply through the block that runs (the record keeps all).
      const logged = parsed.action.kind === 'queries' && parsed.marker === 'query-block' && !parsed.headingList ? throughFirstQueryBlock(response.content) : undefined;
      run.interactionLog.push(logged ?? response.content);
      turn.llm.reasoning = joinReasoning(response.reasoning, parsed.reasoning);
      emit({ type: 'llm-end', turn: turnNo, phase: 'plan', call: turn.llm });
      turn.action = parsed.action;
      turn.marker = parsed.marker;
      if (parsed.tokenSpelling) turn.tokenSpelling = parsed.tokenSpelling;
      if (parsed.unterminatedQueryBlock) turn.unterminatedQueryBlock = true;
      if (parsed.unterminatedAnswer) turn.unterminatedAnswer = true;
      if (parsed.headingList) turn.headingList = true;
      if (logged !== undefined) turn.logCutAfterBlock = true;
      turn.queriesCutByCap = parsed.queriesOverCap;
      emit({
        type: 'action',
        turn: turnNo,
        action: parsed.action,
        marker: parsed.marker,
        ...(parsed.tokenSpelling ? { tokenSpelling: parsed.tokenSpelling } : {}),
      });

      if (parsed.action.kind === 'answer') {
        run.answer = parsed.action.text;
        run.terminatedBy = 'answer';
        emit({ type: 'turn-end', turn: turnNo, record: turn });
        current = undefined;
        break;
      }

      // H5: repeats are answered from the log, not retrieved; then the budget cuts the rest. Extension
      // repeats-outside-parallel-cap: repeats do not count towards max_parallel_queries (they run nothing), so new
      // queries the model wrote after them are not lost to the cap (real 1.5B replies restate the last turn's queries
      // first, then add new ones).
      const entries: Array<{ query: string; kind: 'run' | 'repeat'; firstTurn?: number }> = [];
      const cutByCap: string[] = [];
      let fresh = 0;
      for (const query of [...parsed.action.queries, ...parsed.queriesOverCap]) {
        const firstTurn = firstTurnOf.get(query);
        if (firstTurn !== undefined) {
          turn.queriesRepeated.push({ query, firstTurn });
          entries.push({ query, kind: 'repeat', firstTurn });
        } else if (fresh++ >= cfg.maxParallelQueries) {
          cutByCap.push(query);
        } else if (turn.queriesExecuted.length < remaining) {
          turn.queriesExecuted.push(query);
          entries.push({ query, kind: 'run' });
        } else {
          turn.queriesCutByBudget.push(query);
        }
      }
      turn.queriesCutByCap = cutByCap;
      emit({
        type: 'queries',
        turn: turnNo,
        executed: turn.queriesExecuted,
        repeated: turn.queriesRepeated,
        cutByCap: turn.queriesCutByCap,
        cutByBudget: turn.queriesCutByBudget,
        k,
      });

      const executed = turn.queriesExecuted;
      const lists = await mapWithConcurrency(executed, cfg.retrievalConcurrency, (q, i) => retrieveOne(turn, q, i));
      // H5: only a query that was really searched counts as a repeat later; a failed one may be asked again.
      executed.forEach((q, i) => {
        if (turn.retrievals[i]?.status === 'ok') firstTurnOf.set(q, turnNo);
      });
      if (turn.retrievals.length > 0) {
        turn.retrieval = {
          startMs: Math.min(...turn.retrievals.map((r) => r.startMs)),
          endMs: Math.max(...turn.retrievals.map((r) => r.endMs)),
        };
      }
      if (signal?.aborted) throw abortError();

      turn.failures = turn.retrievals
        .filter((r) => r.status === 'failed')
        .map((r) => ({ query: r.query, error: r.error ?? 'unknown retrieval error' }));
      run.retrievalFailures.push(...turn.failures);
      if (turn.failures.length > 0 && !cfg.allowPartialRetrievalFailures) {
        const detail = turn.failures.map((f) => `${f.query}: ${f.error}`).join('; ');
        throw new FanOutFailure(
          `Hybrid Deep Searcher retrieval failed for ${turn.failures.length} fan-out query(s): ${detail}`,
        );
      }
      for (const record of turn.retrievals) await backfill(record);
      for (const id of mergeTurnResults(lists)) {
        if (!run.retrievedIds.includes(id)) run.retrievedIds.push(id);
      }

      const blockEntries: ResultsBlockEntry[] = entries.map((entry) => {
        if (entry.kind === 'repeat') return { query: entry.query, kind: 'repeat', firstTurn: entry.firstTurn ?? 0 };
        const record = turn.retrievals[executed.indexOf(entry.query)];
        if (record.status === 'failed') return { query: entry.query, kind: 'failed' };
        return { query: entry.query, kind: 'ok', texts: record.results.filter((r) => r.shown).map((r) => r.text) };
      });
      turn.resultsBlock = serializeResultsBlock(blockEntries, parsed.tokenSpelling ?? 'spaces');
      run.interactionLog.push(turn.resultsBlock);
      emit({ type: 'turn-end', turn: turnNo, record: turn });
      current = undefined;

      if (run.searchCallsUsed >= cfg.maxSearchCalls) {
        run.terminatedBy = 'max_search_calls';
        break;
      }
    }

    // An empty answer (no answer, `\boxed{}`, an empty response) goes to the final prompt (reference §1.3).
    if (run.answer === '' && cfg.fallbackToFinalPrompt) {
      if (signal?.aborted) throw abortError();
      const turnNo = run.turns.length + 1;
      const prompt = renderFinalPrompt(cfg.finalPromptTemplate, { query: question, log: run.interactionLog });
      const call: HdsFinalCallRecord = newLlmCallRecord(prompt, at());
      run.fallback = call;
      emit({ type: 'turn-start', turn: turnNo, phase: 'final', prompt, atMs: call.startMs });
      const response = await recordedLlmCall(deps.llm, call, {
        at,
        signal,
        systemPrompt: deps.systemPrompt,
        onDelta: (d) =>
          emit({ type: 'llm-delta', turn: turnNo, phase: 'final', content: d.content, reasoning: d.reasoning }),
      });
      const final = extractFinalAnswer(response.content);
      call.reasoning = joinReasoning(response.reasoning, final.reasoning);
      call.action = final.action;
      call.marker = final.marker;
      emit({ type: 'llm-end', turn: turnNo, phase: 'final', call });
      run.answer = final.action.text;
      run.terminatedBy = `${run.terminatedBy as 'answer' | 'max_turns' | 'max_search_calls'}_fallback`;
    }
  } catch (err) {
    if (isAbortError(err) && signal?.aborted) {
      run.status = 'cancelled';
      run.terminatedBy = 'cancelled';
      if (current) current.status = 'cancelled';
    } else {
      run.status = 'failed';
      run.terminatedBy = 'failed';
      run.error = err instanceof Error ? err.message : String(err);
      if (current) current.status = 'failed';
      finish(run, at);
      emit({ type: 'done', run });
      throw new HdsRunError(run.error, run, err instanceof FanOutFailure ? undefined : err);
    }
  }
  finish(run, at);
  emit({ type: 'done', run });
  return run;
}

function finish(run: HdsRun, at: () => number): void {
  run.tokenUsage = sumUsage([...run.turns.map((t) => t.llm.usage), run.fallback?.usage]);
  run.durationMs = at();
}
