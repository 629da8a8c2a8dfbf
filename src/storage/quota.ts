import { StorageFullError } from '../core/index.ts';

/** Whether an IndexedDB failure means the storage quota is used up. */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'QuotaExceededError' || (name === 'AbortError' && /quota/i.test(String((error as Error).message)));
}

/**
 * Runs a write; a quota failure is rethrown as StorageFullError with `outcome` saying what was not stored
 * (see StorageFullError), or as the error `toError` makes.
 */
export async function guardQuota<T>(work: () => Promise<T>, outcome?: string | (() => Error)): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    throw typeof outcome === 'function' ? outcome() : new StorageFullError(outcome);
  }
}
