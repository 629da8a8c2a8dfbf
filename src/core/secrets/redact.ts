// The one redaction mechanism: known secret values become `[redacted]` in any text, streamed text or JSON-like value,
// and fields named like credentials are dropped. Applied where text leaves a trusted boundary (the LLM provider's
// answer, CLI output, saved runs, exports).

export const REDACTED = '[redacted]';

// Field names that hold credentials, compared lower-case without separators.
// Plain words such as `key` or `token` are left alone: they can be document ids in qrels maps.
const SECRET_FIELDS = new Set(['authorization', 'bearer', 'credentials']);
const SECRET_SUFFIXES = ['apikey', 'secret', 'password', 'accesstoken', 'authtoken', 'bearertoken'];

/** Whether a field name names a credential (`apiKey`, `api_key`, `clientSecret`, `authorization`, …). */
export function isSecretFieldName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z]/g, '');
  return SECRET_FIELDS.has(plain) || SECRET_SUFFIXES.some((s) => plain.endsWith(s));
}

/** The secrets worth looking for: distinct, at least 4 characters (shorter ones would redact ordinary text). */
function usable(secrets: Iterable<string | undefined>): string[] {
  const out = new Set<string>();
  for (const s of secrets) if (s && s.trim().length >= 4) out.add(s);
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of every secret replaced by `[redacted]`. */
export function redactText(text: string, secrets: Iterable<string | undefined>): string {
  return usable(secrets).reduce((t, secret) => t.split(secret).join(REDACTED), text);
}

/**
 * A deep copy of a JSON-like value: credential-named fields dropped, secrets in strings (values and keys) redacted.
 */
export function redactValue<T>(value: T, secrets: Iterable<string | undefined> = []): T {
  const known = usable(secrets);
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, known);
    if (Array.isArray(v)) return v.map(copy);
    if (v && typeof v === 'object') {
      // fromEntries keeps a "__proto__" key as a key (assignment would set the prototype).
      return Object.fromEntries(Object.entries(v).flatMap(([k, inner]) => (isSecretFieldName(k) ? [] : [[redactText(k, known), copy(inner)]])));
    }
    return v;
  };
  return copy(value) as T;
}

/**
 * Redacts text that arrives in pieces (a streamed model answer): a secret split across pieces is still caught,
 * because the end of a piece that could be the start of a secret is held back until the next piece (or `end`).
 */
export class StreamRedactor {
  private readonly secrets: string[];
  private pending = '';

  constructor(secrets: Iterable<string | undefined>) {
    this.secrets = usable(secrets);
  }

  /** The redacted text that is safe to pass on now. */
  push(piece: string): string {
    if (this.secrets.length === 0) return piece;
    const text = redactText(this.pending + piece, this.secrets);
    const hold = this.heldBack(text);
    this.pending = text.slice(text.length - hold);
    return text.slice(0, text.length - hold);
  }

  /** Whatever was held back (it did not complete a secret). */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  /** Length of the longest end of `text` that is a proper start of some secret. */
  private heldBack(text: string): number {
    let longest = 0;
    for (const secret of this.secrets) {
      for (let n = Math.min(secret.length - 1, text.length); n > longest; n--) {
        if (text.endsWith(secret.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest;
  }
}
