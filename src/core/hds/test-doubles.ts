// Test doubles for the agent loops (used by the unit tests only).
import { abortError } from '../abort/index.ts';
import type { LlmCallOptions, LlmDescription, LlmProvider, LlmRequest, LlmResponse, TokenUsage } from '../llm/index.ts';
import type { RetrievedPassage, TextRetriever } from './types.ts';

/** One scripted LLM reply. */
export interface FakeReply {
  /** The response content. */
  content: string;
  /** Separate reasoning, streamed first. */
  reasoning?: string;
  /** Default {2, 3, 5}, as the reference tests; null for none. */
  usage?: TokenUsage | null;
  /** Stream the content in pieces of this many characters, waiting `pieceDelayMs` between them. */
  pieceChars?: number;
  /** Pause between pieces, ms. */
  pieceDelayMs?: number;
  /** The finish reason to report (default: none; `stop` when a stop sequence cut the reply). */
  finishReason?: string;
}

/**
 * An LlmProvider that answers from a queue and records every prompt and request. Like llama.cpp's server it honours
 * stop sequences: a reply is cut before the first one it contains (the stop string left out, finish reason `stop`).
 */
export class ScriptedLlm implements LlmProvider {
  /** Every prompt received, in order. */
  readonly prompts: string[] = [];
  /** Every request received, in order. */
  readonly requests: LlmRequest[] = [];
  private readonly queue: FakeReply[];

  constructor(
    replies: Array<string | FakeReply>,
    /** Whether it continues a trailing assistant message (`LlmProvider.canContinueAssistant`). */
    readonly canContinueAssistant = false,
  ) {
    this.queue = replies.map((r) => (typeof r === 'string' ? { content: r } : r));
  }

  describe(): LlmDescription {
    return { provider: 'scripted', baseUrl: '', model: 'scripted-model' };
  }

  async complete(request: LlmRequest, options: LlmCallOptions = {}): Promise<LlmResponse> {
    this.prompts.push(request.messages.map((m) => m.content).join('\n'));
    this.requests.push(request);
    const scripted = this.queue.shift();
    if (!scripted) throw new Error('ScriptedLlm: no reply left');
    const reply = cutAtStop(scripted, request.stop ?? []);
    const { signal, onDelta } = options;
    if (signal?.aborted) throw abortError();
    if (reply.reasoning) onDelta?.({ content: '', reasoning: reply.reasoning });
    const size = reply.pieceChars ?? Math.max(1, reply.content.length);
    for (let i = 0; i < reply.content.length; i += size) {
      if (i > 0 && reply.pieceDelayMs) {
        await new Promise((r) => setTimeout(r, reply.pieceDelayMs));
        if (signal?.aborted) throw abortError();
      }
      onDelta?.({ content: reply.content.slice(i, i + size), reasoning: '' });
    }
    const usage = reply.usage === undefined ? { promptTokens: 2, completionTokens: 3, totalTokens: 5 } : reply.usage;
    return { content: reply.content, reasoning: reply.reasoning ?? '', ...(usage ? { usage } : {}), ...(reply.finishReason ? { finishReason: reply.finishReason } : {}) };
  }
}

/** The reply cut before the first stop sequence it contains, as servers do. */
function cutAtStop(reply: FakeReply, stop: readonly string[]): FakeReply {
  let at = -1;
  for (const s of stop) {
    const i = reply.content.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? reply : { ...reply, content: reply.content.slice(0, at), finishReason: 'stop' };
}

type Answer = RetrievedPassage[] | Error | ((signal?: AbortSignal) => Promise<RetrievedPassage[]>);

/** A retriever that answers by query text and records every call. */
export class KeyedRetriever implements TextRetriever {
  /** Every (query, k) received, in order. */
  readonly calls: Array<[string, number]> = [];

  constructor(
    private readonly answers: Record<string, Answer>,
    private readonly fallback: Answer = [],
  ) {}

  async search(text: string, k: number, signal?: AbortSignal): Promise<RetrievedPassage[]> {
    this.calls.push([text, k]);
    const answer = Object.hasOwn(this.answers, text) ? this.answers[text] : this.fallback;
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(signal);
    return answer;
  }
}

/** Error with a Python-like class name, as the reference tests raise. */
export class RuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeError';
  }
}

/** A passage. */
export const doc = (id: string, score: number, text = ''): RetrievedPassage => ({ id, score, text });
