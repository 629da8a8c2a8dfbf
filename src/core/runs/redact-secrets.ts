import { isSecretFieldName, redactValue } from '../secrets/index.ts';

/** Whether a config key names a credential. */
export function isSecretKey(key: string): boolean {
  return isSecretFieldName(key);
}

/**
 * A deep copy of a JSON-like value without credential keys (`apiKey`, `password`, …). Runs record every
 * setting of a pipeline; this keeps a setting that happens to be a key out of storage and exports.
 */
export function withoutSecrets<T>(value: T): T {
  return redactValue(value);
}
