import { describe, expect, it } from 'vitest';
import { signalOfPort, withAbortPort } from './abort-bridge.ts';

/** A job on the "worker" side that waits until its signal aborts. */
function waitForAbort(port: MessagePort | undefined): Promise<string> {
  const signal = signalOfPort(port)!;
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(`${signal.reason.name}: ${signal.reason.message}`)));
}

describe('abort bridge', () => {
  it('aborts the worker-side signal when the caller aborts', async () => {
    const controller = new AbortController();
    const job = withAbortPort(controller.signal, waitForAbort);
    controller.abort(new DOMException('The run was cancelled', 'AbortError'));
    expect(await job).toBe('AbortError: The run was cancelled');
  });

  it('passes an already aborted signal on', async () => {
    expect(await withAbortPort(AbortSignal.abort(new DOMException('Gone', 'AbortError')), waitForAbort)).toBe('AbortError: Gone');
  });

  it('gives no port and no signal without a caller signal', async () => {
    expect(await withAbortPort(undefined, async (port) => port)).toBeUndefined();
    expect(signalOfPort(undefined)).toBeUndefined();
  });

  it('leaves a finished job alone when the caller aborts later', async () => {
    const controller = new AbortController();
    let workerSignal: AbortSignal | undefined;
    await withAbortPort(controller.signal, async (port) => {
      workerSignal = signalOfPort(port);
    });
    controller.abort();
    await new Promise((r) => setTimeout(r, 20));
    expect(workerSignal?.aborted).toBe(false);
  });
});
