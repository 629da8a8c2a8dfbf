import { backoffDelayMs, retryAfterMs, sleep } from './backoff.ts';
import { abortError, isAbortError } from '../abort/index.ts';
import { LlmError } from './errors.ts';
import { redactText, StreamRedactor } from '../secrets/index.ts';
import { SseDecoder } from './sse.ts';
import { looksLikeMarkup, unexpectedBodyMessage } from './unexpected-body.ts';
import type {
  ConnectionTestResult,
  LlmCallOptions,
  LlmDelta,
  LlmDescription,
  LlmProvider,
  LlmRequest,
  LlmResponse,
  SamplingSettings,
  LlmStreamLimits,
  TokenUsage,
} from './types.ts';

/** Settings of an OpenAI-compatible chat-completions endpoint. */
export interface OpenAiCompatibleConfig extends SamplingSettings {
  /** Base URL up to the version segment, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Model name sent as `model`. */
  model: string;
  /** Sent as `Authorization: Bearer <key>` and nowhere else; omitted when empty. */
  apiKey?: string;
  /**
   * The server continues a trailing assistant message (llama.cpp's server, vLLM): such a request is sent with
   * `continue_final_message: true` and `add_generation_prompt: false` (vLLM's names; llama.cpp continues by itself).
   * Default false: OpenAI's API starts a new turn instead.
   */
  assistantPrefill?: boolean;
  /** Stream the response over SSE (default true). */
  stream?: boolean;
  /** When streaming, ask for a final usage chunk with `stream_options.include_usage` (default true). */
  includeUsage?: boolean;
  /** Retries after the first attempt on HTTP 429 and 5xx (default 3). */
  maxRetries?: number;
  /** First backoff delay; doubles on every retry (default 1000 ms). */
  retryBaseDelayMs?: number;
  /** Cap on one backoff delay, also applied to the server's Retry-After (default 30000 ms). */
  retryMaxDelayMs?: number;
  /** Longest wait for the response headers, and then between two chunks of the body (default 120000 ms). */
  timeoutMs?: number;
  /**
   * A streamed reply longer than this many characters (answer and reasoning together) is ended with an error, for a
   * server that does not stop at max_tokens (default 16,000,000: a 5 MB reply is read whole, a stream that never ends is not). A reply whose reported usage passes
   * the request's max_tokens is ended too.
   */
  maxResponseChars?: number;
  /**
   * A streamed reply that brings no new character of answer or reasoning for this long is ended with an error, even
   * while the server keeps the connection busy with keep-alives or empty chunks (default 120000 ms).
   */
  idleTimeoutMs?: number;
  /** Extra request headers (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** The fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** How backoff waits are made (default: an abortable timer). Tests inject one to observe the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Sampling settings and their names on the wire (`repeat_penalty` is llama.cpp's; vLLM reads `repetition_penalty`). */
const SAMPLING_WIRE_NAMES: ReadonlyArray<[keyof SamplingSettings, string]> = [
  ['temperature', 'temperature'],
  ['topP', 'top_p'],
  ['maxTokens', 'max_tokens'],
  ['frequencyPenalty', 'frequency_penalty'],
  ['presencePenalty', 'presence_penalty'],
  ['repeatPenalty', 'repeat_penalty'],
  ['seed', 'seed'],
];

const DEFAULTS = {
  stream: true,
  includeUsage: true,
  maxRetries: 3,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 30_000,
  timeoutMs: 120_000,
  maxResponseChars: 16_000_000,
  idleTimeoutMs: 120_000,
};

/** An abort controller tied to the caller's signal, plus a resettable inactivity timer. */
class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  /** The last timer that fired was the stream's idle bound rather than the inactivity timeout. */
  idled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onUserAbort = () => this.controller.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly userSignal?: AbortSignal,
  ) {
    if (userSignal?.aborted) this.controller.abort();
    userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelledByUser(): boolean {
    return this.userSignal?.aborted === true;
  }

  /** (Re)starts the inactivity timer (`ms` when shorter, e.g. what is left of a stream's idle bound). */
  arm(ms = this.timeoutMs, reason: 'timeout' | 'idle' = 'timeout'): void {
    clearTimeout(this.timer);
    const idle = reason === 'idle' && ms < this.timeoutMs;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.idled = idle;
      this.controller.abort();
    }, ms);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
  }
}

/** A chat model behind any server that speaks the OpenAI chat-completions protocol. */
export class OpenAiCompatibleProvider implements LlmProvider {
  private readonly config: OpenAiCompatibleConfig;
  private readonly fetchImpl: typeof fetch;
  private readonly baseUrl: string;

  constructor(config: OpenAiCompatibleConfig) {
    if (!config.baseUrl.trim()) throw new Error('The base URL of the model server is empty.');
    if (!config.model.trim()) throw new Error('The model name is empty.');
    this.config = config;
    this.baseUrl = config.baseUrl.trim().replace(/\/+$/, '');
    const f = config.fetch;
    // Calling the global fetch unbound throws "Illegal invocation" in browsers.
    this.fetchImpl = f ?? ((input, init) => globalThis.fetch(input, init));
  }

  describe(): LlmDescription {
    const description: LlmDescription = { provider: 'openai-compatible', baseUrl: this.baseUrl, model: this.config.model };
    if (this.config.stream ?? DEFAULTS.stream) description.streamLimits = this.streamLimits;
    return description;
  }

  private get streamLimits(): LlmStreamLimits {
    return {
      maxResponseChars: this.config.maxResponseChars ?? DEFAULTS.maxResponseChars,
      idleTimeoutMs: this.config.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    };
  }

  get canContinueAssistant(): boolean {
    return this.config.assistantPrefill === true;
  }

  async complete(request: LlmRequest, options: LlmCallOptions = {}): Promise<LlmResponse> {
    const stream = this.config.stream ?? DEFAULTS.stream;
    const url = `${this.baseUrl}/chat/completions`;
    const body = JSON.stringify(this.requestBody(request, stream));
    const maxRetries = Math.max(0, this.config.maxRetries ?? DEFAULTS.maxRetries);
    const wait = this.config.sleep ?? sleep;
    for (let attempt = 1; ; attempt++) {
      const deadline = new Deadline(this.timeoutMs, options.signal);
      try {
        let response: Response;
        try {
          deadline.arm();
          response = await this.fetchImpl(url, {
            method: 'POST',
            headers: this.headers(stream),
            body,
            signal: deadline.signal,
          });
        } catch (err) {
          throw this.transportError(err, deadline, url, 'connect');
        }
        if (response.ok) {
          try {
            const contentType = response.headers.get('content-type') ?? '';
            if (stream && response.body && !contentType.includes('application/json')) {
              return await this.readStream(response.body, contentType, deadline, options.onDelta, request.maxTokens ?? this.config.maxTokens);
            }
            deadline.arm();
            return this.readJson(await response.text(), contentType, options.onDelta);
          } catch (err) {
            if (err instanceof LlmError) throw err;
            throw this.transportError(err, deadline, url, 'read');
          }
        }
        const detail = await readErrorDetail(response, deadline);
        const retryable = response.status === 429 || response.status >= 500;
        if (retryable && attempt <= maxRetries) {
          const base = this.config.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs;
          const cap = this.config.retryMaxDelayMs ?? DEFAULTS.retryMaxDelayMs;
          const asked = retryAfterMs(response.headers);
          const delay = asked !== undefined ? Math.min(asked, cap) : backoffDelayMs(attempt - 1, base, cap);
          deadline.dispose();
          await wait(delay, options.signal);
          continue;
        }
        throw this.httpError(response.status, detail, attempt, url);
      } finally {
        deadline.dispose();
      }
    }
  }

  async testConnection(signal?: AbortSignal): Promise<ConnectionTestResult> {
    const url = `${this.baseUrl}/models`;
    const deadline = new Deadline(this.timeoutMs, signal);
    try {
      let response: Response;
      try {
        deadline.arm();
        response = await this.fetchImpl(url, { method: 'GET', headers: this.headers(false), signal: deadline.signal });
      } catch (err) {
        throw this.transportError(err, deadline, url, 'connect');
      }
      if (response.status === 404 || response.status === 405) {
        // Some servers have no model list: a one-token completion proves the connection instead.
        deadline.dispose();
        await this.complete({ messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 }, { signal });
        return { ok: true, message: `Connected to ${this.baseUrl}: the model "${this.config.model}" answered.` };
      }
      if (!response.ok) {
        throw this.httpError(response.status, await readErrorDetail(response, deadline), 1, url);
      }
      let models: string[] = [];
      try {
        deadline.arm();
        const json = JSON.parse(await response.text()) as { data?: Array<{ id?: unknown }> };
        models = (json.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
      } catch {
        models = [];
      }
      const listed = models.includes(this.config.model);
      const modelNote =
        models.length === 0
          ? ''
          : listed
            ? ` The model "${this.config.model}" is available.`
            : ` The model "${this.config.model}" is not in the server's list of ${models.length} model(s); check its name.`;
      return { ok: true, message: `Connected to ${this.baseUrl}.${modelNote}`, models };
    } catch (err) {
      if (isAbortError(err)) return { ok: false, message: 'The connection test was cancelled.' };
      const message = err instanceof LlmError ? err.message : this.redact(String(err));
      return { ok: false, message };
    } finally {
      deadline.dispose();
    }
  }

  private get timeoutMs(): number {
    return this.config.timeoutMs ?? DEFAULTS.timeoutMs;
  }

  private requestBody(request: LlmRequest, stream: boolean): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.config.model, messages: request.messages, stream };
    // H11: each sampling setting passes through as set (per call, else the provider's), and is not sent when unset.
    for (const [key, wire] of SAMPLING_WIRE_NAMES) {
      const value = request[key] ?? this.config[key];
      if (value !== undefined) body[wire] = value;
    }
    if (request.stop && request.stop.length > 0) body.stop = request.stop;
    if (this.canContinueAssistant && request.messages.at(-1)?.role === 'assistant') {
      body.continue_final_message = true;
      body.add_generation_prompt = false;
    }
    if (stream && (this.config.includeUsage ?? DEFAULTS.includeUsage)) body.stream_options = { include_usage: true };
    return body;
  }

  private headers(stream: boolean): Record<string, string> {
    const headers: Record<string, string> = { ...this.config.headers };
    headers['Content-Type'] = 'application/json';
    headers.Accept = stream ? 'text/event-stream' : 'application/json';
    if (this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    return headers;
  }

  private async readStream(
    body: ReadableStream<Uint8Array>,
    contentType: string,
    deadline: Deadline,
    onDelta?: (delta: LlmDelta) => void,
    maxTokens?: number,
  ): Promise<LlmResponse> {
    const reader = body.getReader();
    const limits = this.streamLimits;
    let lastProgress = Date.now();
    let sawChoice = false;
    const decoder = new TextDecoder();
    const sse = new SseDecoder();
    const result: LlmResponse = { content: '', reasoning: '' };
    let sawDone = false;
    let events = 0;
    let head = '';
    // A model may echo the key: it never leaves the provider, even split across chunks.
    const safeContent = new StreamRedactor([this.config.apiKey]);
    const safeReasoning = new StreamRedactor([this.config.apiKey]);
    const emit = (content: string, reasoning: string) => {
      if (!content && !reasoning) return;
      result.content += content;
      result.reasoning += reasoning;
      lastProgress = Date.now();
      onDelta?.({ content, reasoning });
      const chars = result.content.length + result.reasoning.length;
      if (chars > limits.maxResponseChars) {
        throw new LlmError(
          'stream',
          `The reply from ${this.baseUrl} ran past ${limits.maxResponseChars} characters without ending (the provider's maxResponseChars); the call was ended. Set max_tokens, or raise the limit if such long replies are expected.`,
        );
      }
    };
    const notAStream = () =>
      new LlmError('protocol', unexpectedBodyMessage(this.baseUrl, 'an event stream', contentType, this.redact(head)));
    const decode = (text: string): string[] => {
      if (head.length < 512) head += text.slice(0, 512 - head.length);
      // A page (HTML, XML) is never an event stream: say so at its first bytes rather than after reading it all.
      if (events === 0 && head.trim() !== '' && looksLikeMarkup(head)) throw notAStream();
      return sse.push(text);
    };
    const handle = (data: string) => {
      events++;
      if (data.trim() === '[DONE]') {
        sawDone = true;
        return;
      }
      const chunk = this.parseJson(data, 'streamed chunk') as StreamChunk;
      throwIfErrorPayload(chunk, (m) => this.redact(m));
      if (typeof chunk.model === 'string') result.model = chunk.model;
      if (chunk.usage) {
        result.usage = parseUsage(chunk.usage);
        const used = result.usage?.completionTokens;
        if (maxTokens !== undefined && used !== undefined && used > maxTokens && !sawDone && result.finishReason === undefined) {
          throw new LlmError('stream', `The reply from ${this.baseUrl} ran past max_tokens (${used} completion tokens reported, ${maxTokens} asked) without ending; the call was ended.`);
        }
      }
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!choice) return;
      sawChoice = true;
      const delta = choice.delta ?? {};
      emit(safeContent.push(typeof delta.content === 'string' ? delta.content : ''), safeReasoning.push(pickReasoning(delta)));
      if (typeof choice.finish_reason === 'string') result.finishReason = choice.finish_reason;
      if (typeof choice.stop_reason === 'string') result.stopSequence = choice.stop_reason;
    };
    try {
      while (!sawDone) {
        deadline.arm(Math.max(0, Math.min(this.timeoutMs, limits.idleTimeoutMs - (Date.now() - lastProgress))), 'idle');
        const { value, done } = await reader.read();
        if (done) {
          for (const data of decode(decoder.decode())) handle(data);
          for (const data of sse.end()) handle(data);
          break;
        }
        for (const data of decode(decoder.decode(value, { stream: true }))) {
          handle(data);
          if (sawDone) break;
        }
        // Keep-alives and empty chunks reset no clock: only new text does.
        if (!sawDone && Date.now() - lastProgress > limits.idleTimeoutMs) throw this.idleError(limits.idleTimeoutMs);
      }
    } catch (err) {
      void reader.cancel().catch(() => undefined);
      throw err;
    } finally {
      if (sawDone) void reader.cancel().catch(() => undefined);
      else reader.releaseLock();
    }
    if (events === 0) throw notAStream();
    emit(safeContent.end(), safeReasoning.end());
    if (!sawChoice) {
      throw new LlmError('protocol', `The reply from ${this.baseUrl} has no choice in any chunk ("choices": []): the model answered nothing, so there is no answer to keep.`);
    }
    if (!sawDone && result.finishReason === undefined) {
      throw new LlmError(
        'stream',
        `The response stream from ${this.baseUrl} ended before it was complete (after ${result.content.length} characters of answer).`,
      );
    }
    return result;
  }

  private readJson(text: string, contentType: string, onDelta?: (delta: LlmDelta) => void): LlmResponse {
    let json: CompletionBody;
    try {
      json = JSON.parse(text) as CompletionBody;
    } catch {
      throw new LlmError(
        'protocol',
        unexpectedBodyMessage(this.baseUrl, 'a JSON chat completion', contentType, this.redact(text.slice(0, 512))),
      );
    }
    throwIfErrorPayload(json, (m) => this.redact(m));
    const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
    if (!choice || typeof choice.message !== 'object' || choice.message === null) {
      throw new LlmError('protocol', `The response from ${this.baseUrl} has no message (not a chat completion?).`);
    }
    const content = this.redact(typeof choice.message.content === 'string' ? choice.message.content : '');
    const reasoning = this.redact(pickReasoning(choice.message));
    const result: LlmResponse = { content, reasoning };
    if (json.usage) result.usage = parseUsage(json.usage);
    if (typeof choice.finish_reason === 'string') result.finishReason = choice.finish_reason;
    if (typeof choice.stop_reason === 'string') result.stopSequence = choice.stop_reason;
    if (typeof json.model === 'string') result.model = json.model;
    if (content || reasoning) onDelta?.({ content, reasoning });
    return result;
  }

  private parseJson(text: string, what: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      const excerpt = this.redact(text.length > 80 ? `${text.slice(0, 80)}…` : text);
      throw new LlmError(
        'protocol',
        `The server sent a ${what} that is not valid JSON ("${excerpt}"); is ${this.baseUrl} an OpenAI-compatible API?`,
      );
    }
  }

  private transportError(err: unknown, deadline: Deadline, url: string, phase: 'connect' | 'read'): Error {
    if (deadline.cancelledByUser) return abortError();
    if (deadline.idled) return this.idleError(this.streamLimits.idleTimeoutMs);
    if (deadline.timedOut) {
      const seconds = this.timeoutMs / 1000;
      const what = phase === 'connect' ? 'did not answer' : 'stopped sending';
      return new LlmError('timeout', `The model server at ${this.baseUrl} ${what} for ${seconds} s (timeout).`);
    }
    if (err instanceof LlmError) return err;
    const detail = this.redact(describeCause(err));
    if (phase === 'read') {
      return new LlmError('stream', `The connection to ${this.baseUrl} broke while the response was arriving (${detail}).`);
    }
    return new LlmError('network', networkFailureMessage(url, detail));
  }

  private idleError(idleTimeoutMs: number): LlmError {
    return new LlmError(
      'timeout',
      `The reply from ${this.baseUrl} brought no new text for ${idleTimeoutMs / 1000} s (the provider's idleTimeoutMs); the call was ended.`,
    );
  }

  private httpError(status: number, detail: string, attempts: number, url: string): LlmError {
    const safe = this.redact(detail);
    const suffix = safe ? `: ${safe}` : '.';
    let message: string;
    if (status === 401 || status === 403) {
      // Servers may echo part of a wrong key in their message: leave it out.
      message = `The model server refused the credentials (HTTP ${status}); check the API key for ${this.baseUrl}.`;
    } else if (status === 404) {
      message = `Not found (HTTP 404) at ${url}; check the base URL and the model name "${this.config.model}"${suffix}`;
    } else if (status === 429) {
      message = `The model server is rate-limiting requests (HTTP 429) and still refused after ${attempts} attempt(s)${suffix}`;
    } else if (status >= 500) {
      message = `The model server failed (HTTP ${status}) on all ${attempts} attempt(s)${suffix}`;
    } else {
      message = `The model server refused the request (HTTP ${status})${suffix}`;
    }
    return new LlmError('http', message, { status, attempts });
  }

  private redact(text: string): string {
    return redactText(text, [this.config.apiKey]);
  }
}

interface RawUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  total_tokens?: unknown;
}

interface ReasoningCarrier {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
}

interface StreamChunk {
  model?: unknown;
  usage?: RawUsage | null;
  choices?: Array<{ delta?: ReasoningCarrier; finish_reason?: unknown; stop_reason?: unknown }>;
  error?: unknown;
}

interface CompletionBody {
  model?: unknown;
  usage?: RawUsage | null;
  choices?: Array<{ message?: ReasoningCarrier | null; finish_reason?: unknown; stop_reason?: unknown }>;
  error?: unknown;
}

function pickReasoning(carrier: ReasoningCarrier): string {
  if (typeof carrier.reasoning_content === 'string' && carrier.reasoning_content) return carrier.reasoning_content;
  if (typeof carrier.reasoning === 'string') return carrier.reasoning;
  return '';
}

function parseUsage(raw: RawUsage): TokenUsage {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const promptTokens = num(raw.prompt_tokens);
  const completionTokens = num(raw.completion_tokens);
  // The reference, docs/decisions.md#hds-reference: a field the server leaves out counts as 0.
  const totalTokens = num(raw.total_tokens);
  return { promptTokens, completionTokens, totalTokens };
}

/** The message of an `{error: …}` body (OpenAI, vLLM, Ollama and llama.cpp shapes), or ''. */
function errorText(json: unknown): string {
  if (typeof json !== 'object' || json === null) return '';
  const j = json as { error?: unknown; message?: unknown; detail?: unknown };
  if (typeof j.error === 'string') return j.error;
  if (typeof j.error === 'object' && j.error !== null) {
    const m = (j.error as { message?: unknown }).message;
    if (typeof m === 'string') return m;
  }
  if (typeof j.message === 'string') return j.message;
  if (typeof j.detail === 'string') return j.detail;
  return '';
}

function throwIfErrorPayload(json: unknown, redact: (m: string) => string): void {
  if (typeof json === 'object' && json !== null && 'error' in json && (json as { error: unknown }).error) {
    const text = errorText(json) || 'unknown error';
    throw new LlmError('protocol', `The model server reported an error: ${redact(text)}`);
  }
}

async function readErrorDetail(response: Response, deadline: Deadline): Promise<string> {
  try {
    deadline.arm();
    const text = await response.text();
    let detail = text.trim();
    try {
      detail = errorText(JSON.parse(text)) || detail;
    } catch {
      // not JSON: keep the text
    }
    return detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
  } catch {
    return '';
  }
}

function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? cause.message : '';
  return causeText && causeText !== err.message ? `${err.message}: ${causeText}` : err.message;
}

/** Explains a fetch that failed before any answer, which in a browser is very often CORS. */
export function networkFailureMessage(url: string, detail: string): string {
  return (
    `Could not reach ${url} (${detail}). The server may be down or the address wrong. ` +
    'If it runs on your own machine and is reachable otherwise, it is probably refusing requests from this page ' +
    '(CORS): start Ollama with OLLAMA_ORIGINS set to this page\'s origin (e.g. OLLAMA_ORIGINS="*" ollama serve), ' +
    'enable CORS in LM Studio (lms server start --cors), or use --allowed-origins (vLLM) / --cors-origins (llama.cpp).'
  );
}
