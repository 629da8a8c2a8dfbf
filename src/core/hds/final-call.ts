import { finalCallPlan, readFinalReply } from './final-answer.ts';
import { joinReasoning, newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
import { renderFinalPrompt } from './prompts.ts';
import type { HdsRunContext } from './run-context.ts';
import type { HdsFinalCallRecord } from './types.ts';

/**
 * The final prompt, asked once when the loop ended without an answer (the reference's fallback). It is its own call
 * (H10): no system message goes with it, and `finalAnswer` decides how the answer is asked for (the authors' forced
 * `\boxed{` prefix where the provider continues an assistant message). The reply is read by H8; the call is recorded
 * on `run.fallback`, and `run.answer` is set.
 */
export async function finalAnswerCall(ctx: HdsRunContext): Promise<void> {
  const { cfg, run, deps, at, signal, emit } = ctx;
  const turnNo = run.turns.length + 1;
  const prompt = renderFinalPrompt(cfg.finalPromptTemplate, { query: run.question, log: run.interactionLog });
  const plan = finalCallPlan(prompt, cfg.finalAnswer, deps.llm.canContinueAssistant === true);
  const call: HdsFinalCallRecord = newLlmCallRecord(prompt, at());
  call.finalAnswer = { requested: cfg.finalAnswer, applied: plan.applied };
  if (plan.prefix !== undefined) call.prefix = plan.prefix;
  run.fallback = call;
  emit({ type: 'turn-start', turn: turnNo, phase: 'final', prompt, atMs: call.startMs });
  const response = await recordedLlmCall(deps.llm, call, {
    at,
    signal,
    messages: plan.messages,
    onDelta: (d) => emit({ type: 'llm-delta', turn: turnNo, phase: 'final', content: d.content, reasoning: d.reasoning }),
  });
  const final = readFinalReply(response.content, plan.prefix);
  call.reasoning = joinReasoning(response.reasoning, final.reasoning);
  call.action = final.action;
  call.marker = final.marker;
  emit({ type: 'llm-end', turn: turnNo, phase: 'final', call });
  run.answer = final.action.text;
}
