import { redactText } from '../secrets/index.ts';

/** Why an LLM call failed. */
export type LlmErrorKind =
  /** The server answered with an HTTP error status. */
  | 'http'
  /** The server could not be reached (DNS, refused connection, CORS, offline). */
  | 'network'
  /** The server did not answer within the configured timeout. */
  | 'timeout'
  /** The connection broke, or the stream ended, before the response was complete. */
  | 'stream'
  /** The server answered something that is not the OpenAI chat-completions protocol. */
  | 'protocol';

/** A failed LLM call, explained in plain words. The message never contains the API key. */
export class LlmError extends Error {
  /** What went wrong. */
  readonly kind: LlmErrorKind;
  /** HTTP status, for `http` errors. */
  readonly status?: number;
  /** Number of HTTP attempts made before giving up. */
  readonly attempts: number;

  constructor(kind: LlmErrorKind, message: string, options: { status?: number; attempts?: number } = {}) {
    super(message);
    this.name = 'LlmError';
    this.kind = kind;
    this.status = options.status;
    this.attempts = options.attempts ?? 1;
  }
}

/** Replaces every occurrence of `secret` in `text` (no-op for empty or very short secrets). */
export function redactSecret(text: string, secret: string | undefined): string {
  return redactText(text, [secret]);
}
