import { joinReasoning, newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
import { parseHdsResponse, throughFirstQueryBlock, type HdsParsedResponse } from './parse-action.ts';
import { findPlanLoop } from './plan-guard.ts';
import { inventsResults, PLAN_STOP_SEQUENCES } from './plan-stop.ts';
import { renderPlanPrompt } from './prompts.ts';
import type { HdsRunContext } from './run-context.ts';
import type { HdsTurnRecord } from './types.ts';

/**
 * One plan turn up to the model's action: renders the plan prompt, asks the model (with the system message, and
 * with the stop sequences of H9 unless `planStop` is `none`, and the plan guard when `planGuard` is `loops`), parses the reply (H1–H4), logs it and records the turn.
 * The turn is pushed onto the run before the call, so a failure or cancellation leaves it recorded.
 */
export async function planTurn(ctx: HdsRunContext, turnNo: number, remaining: number): Promise<{ turn: HdsTurnRecord; parsed: HdsParsedResponse }> {
  const { cfg, run, deps, at, signal, emit } = ctx;
  const prompt = renderPlanPrompt(cfg.planPromptTemplate, {
    query: run.question,
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
    k: ctx.k,
    retrievals: [],
    failures: [],
    status: 'complete',
  };
  run.turns.push(turn);
  emit({ type: 'turn-start', turn: turnNo, phase: 'plan', prompt, atMs: turn.llm.startMs });

  const response = await recordedLlmCall(deps.llm, turn.llm, {
    at,
    signal,
    systemPrompt: deps.systemPrompt,
    ...(cfg.planStop === 'query-block' ? { stop: PLAN_STOP_SEQUENCES } : {}),
    ...(cfg.planGuard === 'loops' ? { guard: findPlanLoop } : {}),
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
  if (parsed.thinkClosedAtBlock) turn.thinkClosedAtBlock = true;
  if (logged !== undefined) turn.logCutAfterBlock = true;
  if (inventsResults(response.content, response.stopSequence)) turn.inventedResults = true;
  turn.queriesCutByCap = parsed.queriesOverCap;
  emit({
    type: 'action',
    turn: turnNo,
    action: parsed.action,
    marker: parsed.marker,
    ...(parsed.tokenSpelling ? { tokenSpelling: parsed.tokenSpelling } : {}),
  });
  return { turn, parsed };
}
