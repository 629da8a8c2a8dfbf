/** A new id `<prefix>-<time>-<random>`, unique in practice within one browser or process. */
export function newId(prefix: string, randomChars = 8): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 2 + randomChars)}`;
}

/**
 * An empty object for keys that come from users (query and document ids, field names): it has no prototype, so an
 * id such as "__proto__" or "constructor" is an ordinary key, kept and looked up like any other.
 */
export function idRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
