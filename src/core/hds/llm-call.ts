import { isAbortError } from '../abort.ts';
import type { ChatMessage, LlmDelta, LlmProvider, LlmResponse } from '../llm/types.ts';
import { raceAbort } from './concurrency.ts';
import type { LlmCallRecord } from './types.ts';

/** A fresh record for a call that has not started yet. */
export function newLlmCallRecord(prompt: string, atMs: number): LlmCallRecord {
  return { prompt, response: '', reasoning: '', startMs: atMs, endMs: atMs };
}

/**
 * Sends `record.prompt` as one user message (after `options.systemPrompt` as a system message, when not blank; the
 * record keeps it) and fills `record` as the response streams in. On cancellation the
 * record keeps the partial response and is marked `cancelled`; on failure it gets the error. Rethrows either way.
 */
export async function recordedLlmCall(
  llm: LlmProvider,
  record: LlmCallRecord,
  options: { at: () => number; signal?: AbortSignal; onDelta?: (delta: LlmDelta) => void; systemPrompt?: string },
): Promise<LlmResponse> {
  const { at, signal } = options;
  const system = options.systemPrompt?.trim();
  const messages: ChatMessage[] = [{ role: 'user', content: record.prompt }];
  if (system) {
    record.systemPrompt = system;
    messages.unshift({ role: 'system', content: system });
  }
  record.startMs = at();
  let closed = false; // a provider that ignores the signal may still stream after cancellation
  const onDelta = (delta: LlmDelta) => {
    if (closed) return;
    if (record.firstTokenMs === undefined) record.firstTokenMs = at();
    record.response += delta.content;
    record.reasoning += delta.reasoning;
    options.onDelta?.(delta);
  };
  try {
    const response = await raceAbort(
      llm.complete({ messages }, { signal, onDelta }),
      signal,
    );
    record.response = response.content;
    record.reasoning = response.reasoning;
    if (response.usage) record.usage = response.usage;
    if (response.finishReason !== undefined) record.finishReason = response.finishReason;
    return response;
  } catch (err) {
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
