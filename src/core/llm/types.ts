/** One message of a chat conversation. */
export interface ChatMessage {
  /** Who speaks. */
  role: 'system' | 'user' | 'assistant';
  /** The message text. */
  content: string;
}

/** Token counts of one LLM call, or a sum of several. */
export interface TokenUsage {
  /** Tokens of the prompt. */
  promptTokens: number;
  /** Tokens generated (reasoning included, as servers count them). */
  completionTokens: number;
  /** As reported by the server (prompt + completion when it did not say). */
  totalTokens: number;
}

/**
 * Sampling settings sent to a model. Each passes through to the server unchanged when set; an unset one is not sent,
 * so the server's own default applies (nothing is silently defaulted by the workbench, H11).
 */
export interface SamplingSettings {
  /** Sampling temperature (0 = greedy). */
  temperature?: number;
  /** Nucleus sampling: the smallest set of tokens whose probability mass reaches `topP`. */
  topP?: number;
  /** Maximum number of completion tokens. */
  maxTokens?: number;
  /** OpenAI's `frequency_penalty` (−2…2). */
  frequencyPenalty?: number;
  /** OpenAI's `presence_penalty` (−2…2). */
  presencePenalty?: number;
  /** llama.cpp's and vLLM's `repeat_penalty` / `repetition_penalty` (1 = none). */
  repeatPenalty?: number;
  /** The sampler's seed (OpenAI, vLLM and llama.cpp read `seed`), so a sampled run can be repeated on the same server. */
  seed?: number;
}

/** What to send to the model. Unset sampling options fall back to the provider's configuration. */
export interface LlmRequest extends SamplingSettings {
  /**
   * The conversation, oldest first. When the last message is an assistant message, a provider that can continue it
   * (`LlmProvider.canContinueAssistant`) generates its continuation; the response holds only the continuation.
   */
  messages: ChatMessage[];
  /** Stop sequences passed to the server as is. */
  stop?: string[];
}

/** A piece of a streamed response. Either field may be empty. */
export interface LlmDelta {
  /** New answer text. */
  content: string;
  /** New reasoning text (`reasoning_content` / `reasoning` of the server), kept apart from the answer. */
  reasoning: string;
}

/** Per-call options that are not part of the request itself. */
export interface LlmCallOptions {
  /** Aborting it stops the request (and the stream) at once; the call then rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Called for every streamed piece (once with the whole text when the provider does not stream). */
  onDelta?: (delta: LlmDelta) => void;
}

/** The complete response of one call. */
export interface LlmResponse {
  /** The answer text (`content`), exactly as the server sent it. */
  content: string;
  /** Reasoning the server returned separately from the content; empty when none. */
  reasoning: string;
  /** Token counts, when the server reported them. */
  usage?: TokenUsage;
  /** `finish_reason` of the server (`stop`, `length`, …), when reported. */
  finishReason?: string;
  /** The stop sequence that ended the reply, when the server said which (vLLM's and llama.cpp's `stop_reason`). */
  stopSequence?: string;
  /** The model name the server reported, when it did. */
  model?: string;
}

/** What a run records about the model it used. Never contains the API key. */
export interface LlmDescription {
  /** Provider kind, e.g. `openai-compatible`. */
  provider: string;
  /** Base URL of the API (may be empty for in-process providers). */
  baseUrl: string;
  /** Model name. */
  model: string;
  /** When the provider streams: the bounds after which it ends a reply that does not end by itself. */
  streamLimits?: LlmStreamLimits;
}

/** How a provider ends a streamed reply that runs on (saved with every run, so its answers can be judged). */
export interface LlmStreamLimits {
  /** Characters of answer and reasoning together after which the call ends with an error. */
  maxResponseChars: number;
  /** Milliseconds without a new character of answer or reasoning (keep-alives and empty chunks do not count). */
  idleTimeoutMs: number;
}

/** Outcome of a connection test: `ok` false comes with a plain-words explanation. */
export interface ConnectionTestResult {
  /** True when the server answered and accepted the credentials. */
  ok: boolean;
  /** What happened, in plain words. */
  message: string;
  /** Model names the server listed, when it listed any. */
  models?: string[];
}

/** A chat model behind some API. Implementations must never put the API key in errors, logs or results. */
export interface LlmProvider {
  /** Runs one chat completion. Rejects with an `LlmError` (or an `AbortError` when aborted). */
  complete(request: LlmRequest, options?: LlmCallOptions): Promise<LlmResponse>;
  /** Identifies the provider and model for run records. */
  describe(): LlmDescription;
  /** Checks that the server answers and accepts the credentials. Never rejects. */
  testConnection?(signal?: AbortSignal): Promise<ConnectionTestResult>;
  /**
   * True when the model continues a trailing assistant message instead of starting a new turn (llama.cpp's server,
   * vLLM with `continue_final_message`); false or unset: a trailing assistant message must not be sent.
   */
  readonly canContinueAssistant?: boolean;
}
