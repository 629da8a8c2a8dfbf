import { describe, expect, it } from 'vitest';
import { mapWithConcurrency, raceAbort } from './concurrency.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapWithConcurrency', () => {
  it('never runs more than the limit at once and keeps item order', async () => {
    let running = 0;
    let peak = 0;
    const delays = [30, 5, 20, 1, 10, 2];
    const out = await mapWithConcurrency(delays, 2, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await tick(ms);
      running--;
      return i * 10;
    });
    expect(out).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(2);
  });

  it('handles an empty list', async () => {
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
  });
});

describe('raceAbort', () => {
  it('rejects with AbortError as soon as the signal aborts, even if the promise never settles', async () => {
    const controller = new AbortController();
    const pending = raceAbort(new Promise<number>(() => undefined), controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('passes the value through otherwise', async () => {
    expect(await raceAbort(Promise.resolve(3), new AbortController().signal)).toBe(3);
  });
});
