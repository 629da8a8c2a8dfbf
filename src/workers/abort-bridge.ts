// One way to cancel a worker job: the caller's AbortSignal crosses into the worker as a MessagePort
// (comlink transfers ports, not signals), and aborts a signal of the same name there.
import { abortError } from '../core/index.ts';

/**
 * Calls `call` with a port that aborts the worker-side signal when `signal` aborts; the port is closed when the
 * call settles. Pass it to comlink as `Comlink.transfer(port, [port])`.
 */
export async function withAbortPort<T>(signal: AbortSignal | undefined, call: (port: MessagePort | undefined) => Promise<T>): Promise<T> {
  if (!signal) return call(undefined);
  const { port1, port2 } = new MessageChannel();
  const onAbort = () => port1.postMessage(reasonText(signal.reason));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(port2);
  } finally {
    signal.removeEventListener('abort', onAbort);
    port1.close();
  }
}

/** The worker side: a signal that aborts (with an `AbortError`) when the caller's signal does. */
export function signalOfPort(port: MessagePort | undefined): AbortSignal | undefined {
  if (!port) return undefined;
  const controller = new AbortController();
  port.onmessage = (event: MessageEvent) => {
    controller.abort(abortError(String(event.data)));
    port.close();
  };
  return controller.signal;
}

function reasonText(reason: unknown): string {
  return reason instanceof Error && reason.message ? reason.message : 'The job was cancelled';
}
