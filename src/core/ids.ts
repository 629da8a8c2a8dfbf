/** A new id `<prefix>-<time>-<random>`, unique in practice within one browser or process. */
export function newId(prefix: string, randomChars = 8): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 2 + randomChars)}`;
}
