// The one way the core (and every host) makes, throws and recognises a cancellation.

/** The error a cancelled job rejects with: a `DOMException` named `AbortError`, as `fetch` throws. */
export function abortError(message = 'The job was cancelled'): Error {
  return new DOMException(message, 'AbortError');
}

/** Throws when `signal` is aborted: its reason when that is already an AbortError (it carries the words), else {@link abortError}. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw isAbortError(signal.reason) ? signal.reason : abortError();
}

/** True for the error a cancelled operation rejects with (anything named `AbortError`). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/**
 * Resolves in a new task, so that messages queued meanwhile are delivered first. A worker's long job awaits this
 * between units of work: model inference and CPU loops resolve in microtasks only, and an abort sent from the
 * page (a MessagePort message, see workers/abort-bridge.ts) would otherwise wait until the job ends.
 * A message, not a timer: timers are clamped (4 ms when nested) and throttled, messages are not, and messages
 * already queued (the abort) are delivered before this one.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * Something to await between small units of work (one query of a sweep): it yields a task ({@link nextTask}) on its
 * first call and then at most every `ms` milliseconds, so an abort message is heard quickly at little cost.
 */
export function taskYielder(ms: number): () => Promise<void> {
  let last = -Infinity;
  return async () => {
    if (performance.now() - last < ms) return;
    await nextTask();
    last = performance.now();
  };
}
