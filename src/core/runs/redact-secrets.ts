/** Keys that hold credentials; such a key never goes into a saved run or an export, at any depth. */
const SECRET_KEY = /^(api[-_]?key|apikey|secret|client[-_]?secret|password|authorization|access[-_]?token|bearer|auth[-_]?token)$/i;

/** Whether a config key names a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * A deep copy of a JSON-like value without credential keys (`apiKey`, `password`, …). Runs record every
 * setting of a pipeline; this keeps a setting that happens to be a key out of storage and exports.
 */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (!isSecretKey(key)) out[key] = withoutSecrets(v);
    }
    return out as T;
  }
  return value;
}
