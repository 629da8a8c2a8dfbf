import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryAfterMs, sleep } from './backoff.ts';

describe('backoffDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([0, 1, 2, 3, 4].map((r) => backoffDelayMs(r, 100, 1000))).toEqual([100, 200, 400, 800, 1000]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, fractional seconds, retry-after-ms and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'Retry-After': '0.25' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'Retry-After': '9' }))).toBe(150);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(retryAfterMs(new Headers({ 'Retry-After': 'Wed, 21 Oct 2015 07:28:03 GMT' }), now)).toBe(3000);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'Retry-After': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'Retry-After': '-1' }))).toBeUndefined();
  });
});

describe('sleep', () => {
  it('rejects with AbortError when aborted', async () => {
    const controller = new AbortController();
    const p = sleep(10_000, controller.signal);
    controller.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
