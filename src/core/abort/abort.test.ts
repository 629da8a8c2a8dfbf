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

  it('keeps the words of an AbortError reason, and replaces any other reason', () => {
    const controller = new AbortController();
    controller.abort(abortError('Embedding was cancelled'));
    expect(() => throwIfAborted(controller.signal)).toThrow('Embedding was cancelled');
    const other = new AbortController();
    other.abort('just a string');
    expect(() => throwIfAborted(other.signal)).toThrow(expect.objectContaining({ name: 'AbortError', message: 'The job was cancelled' }));
  });

  it('recognises AbortError by name', () => {
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError('AbortError')).toBe(false);
    expect(abortError()).toBeInstanceOf(Error);
  });
});
