/** The error an aborted ingestion rejects with (`name === 'AbortError'`). */
export function abortError(): Error {
  return new DOMException('Ingestion was aborted', 'AbortError');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
