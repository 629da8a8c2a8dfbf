import { isAbortError } from '../abort/index.ts';
import type { ChatMessage, LlmDelta, LlmProvider, LlmResponse } from '../llm/index.ts';
import { raceAbort } from './concurrency.ts';
import type { PlanGuardCut } from './plan-guard.ts';
import { replyEnding, restoreStopMarker } from './plan-stop.ts';
import type { LlmCallRecord } from './types.ts';

/** A fresh record for a call that has not started yet. */
export function newLlmCallRecord(prompt: string, atMs: number): LlmCallRecord {
  return { prompt, response: '', reasoning: '', startMs: atMs, endMs: atMs };
}

/** Options of {@link recordedLlmCall}. */
export interface RecordedCallOptions {
  /** ms since the run started. */
  at: () => number;
  signal?: AbortSignal;
  onDelta?: (delta: LlmDelta) => void;
  /** A system message put before the prompt when not blank (the record keeps it). */
  systemPrompt?: string;
  /** The messages to send instead of the prompt as one user message (the final call's, H10). */
  messages?: ChatMessage[];
  /** Stop sequences (H9); a query-block end marker the server consumed is put back into the response. */
  stop?: readonly string[];
  /**
   * Checks the reply as it streams (extension plan-guard); when it returns a cut, the call is ended there and the
   * cut's content is the response.
   */
  guard?: (replySoFar: string) => PlanGuardCut | undefined;
}

/**
 * Sends `record.prompt` as one user message (after `options.systemPrompt` as a system message, when not blank), or
 * `options.messages` when given, and fills `record` as the response streams in: the exact messages and stop sequences
 * sent, the response, why it ended (H9). On cancellation the record keeps the partial response and is marked
 * `cancelled`; on failure it gets the error. Rethrows either way.
 */
export async function recordedLlmCall(llm: LlmProvider, record: LlmCallRecord, options: RecordedCallOptions): Promise<LlmResponse> {
  const { at, signal } = options;
  const system = options.systemPrompt?.trim();
  let messages: ChatMessage[];
  if (options.messages) {
    messages = options.messages;
  } else {
    messages = [{ role: 'user', content: record.prompt }];
    if (system) {
      record.systemPrompt = system;
      messages.unshift({ role: 'system', content: system });
    }
  }
  record.messages = messages.map((m) => ({ ...m }));
  const stop = options.stop && options.stop.length > 0 ? [...options.stop] : undefined;
  if (stop) record.stop = stop;
  record.startMs = at();
  let closed = false; // a provider that ignores the signal may still stream after cancellation
  let cut: PlanGuardCut | undefined;
  const guardStop = options.guard ? new AbortController() : undefined;
  const callSignal = guardStop ? (signal ? AbortSignal.any([signal, guardStop.signal]) : guardStop.signal) : signal;
  const onDelta = (delta: LlmDelta) => {
    if (closed || cut) return;
    if (record.firstTokenMs === undefined) record.firstTokenMs = at();
    record.response += delta.content;
    record.reasoning += delta.reasoning;
    options.onDelta?.(delta);
    if (delta.content && options.guard) {
      cut = options.guard(record.response);
      if (cut) guardStop!.abort();
    }
  };
  try {
    const response = await raceAbort(llm.complete({ messages, ...(stop ? { stop } : {}) }, { signal: callSignal, onDelta }), callSignal);
    const restored = stop ? restoreStopMarker(response.content, response) : { content: response.content };
    record.response = restored.content;
    record.reasoning = response.reasoning;
    if (restored.restored) record.markerRestored = restored.restored;
    if (response.usage) record.usage = response.usage;
    if (response.finishReason !== undefined) record.finishReason = response.finishReason;
    if (response.stopSequence !== undefined) record.stopSequence = response.stopSequence;
    record.endedBy = replyEnding(response, restored.restored !== undefined);
    return { ...response, content: restored.content };
  } catch (err) {
    if (cut && !signal?.aborted) {
      // The guard ended the call: the reply kept is the response.
      record.guard = { rule: cut.rule, text: cut.text, received: record.response };
      record.response = cut.content;
      record.endedBy = cut.rule;
      return { content: cut.content, reasoning: record.reasoning };
    }
    if (isAbortError(err) && signal?.aborted) record.cancelled = true;
    else record.error = err instanceof Error ? err.message : String(err);
    throw err;
  } finally {
    closed = true;
    record.endMs = at();
  }
}

/** Joins reasoning parts that are not empty with a blank line. */
export function joinReasoning(...parts: string[]): string {
  return parts.filter((p) => p.trim() !== '').join('\n\n');
}
