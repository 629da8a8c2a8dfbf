import { finalCallPlan, readFinalReply } from './final-answer.ts';
import { joinReasoning, newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
import { qaPrompt } from './baselines/baseline-run.ts';
import { renderFinalPrompt } from './prompts.ts';
import type { HdsRunContext } from './run-context.ts';
import type { HdsFinalCallRecord, HdsRun } from './types.ts';

/**
 * The final prompt, asked once when the loop ended without an answer (the reference's fallback). It is its own call
 * (H10): no system message goes with it, and `finalAnswer` decides how the answer is asked for (the authors' forced
 * `\boxed{` prefix where the provider continues an assistant message), and `finalContext` whether it reads the log
 * or the passages shown. The reply is read by H8; the call is recorded on `run.fallback`, and `run.answer` is set.
 */
export async function finalAnswerCall(ctx: HdsRunContext): Promise<void> {
  const { cfg, run, deps, at, signal, emit } = ctx;
  const turnNo = run.turns.length + 1;
  const passages = cfg.finalContext === 'passages' ? shownPassages(run) : undefined;
  const prompt = passages
    ? qaPrompt(run.question, passages.map((p) => p.text))
    : renderFinalPrompt(cfg.finalPromptTemplate, { query: run.question, log: run.interactionLog });
  const plan = finalCallPlan(prompt, cfg.finalAnswer, deps.llm.canContinueAssistant === true);
  const call: HdsFinalCallRecord = newLlmCallRecord(prompt, at());
  call.finalAnswer = { requested: cfg.finalAnswer, applied: plan.applied };
  if (plan.prefix !== undefined) call.prefix = plan.prefix;
  if (passages) call.contextIds = passages.map((p) => p.id);
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

/** The distinct passages (by id) the results blocks showed, in the order first shown: the question's own search, then turn, query, rank. */
export function shownPassages(run: HdsRun): Array<{ id: string; text: string }> {
  const seen = new Set<string>();
  const out: Array<{ id: string; text: string }> = [];
  for (const turn of run.questionSearch ? [run.questionSearch, ...run.turns] : run.turns) {
    for (const retrieval of turn.retrievals) {
      if (retrieval?.status !== 'ok') continue;
      for (const r of retrieval.results) {
        if (!r.shown || r.text === '' || seen.has(r.id)) continue;
        seen.add(r.id);
        out.push({ id: r.id, text: r.text });
      }
    }
  }
  return out;
}
