import { describe, expect, it } from 'vitest';
import { abortError, isAbortError, throwIfAborted } from './abort.ts';

describe('abort', () => {
  it('throws an error named AbortError only when aborted', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(() => throwIfAborted(AbortSignal.abort())).toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(isAbortError(abortError())).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
  });
});
