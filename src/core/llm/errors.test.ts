import { describe, expect, it } from 'vitest';
import { abortError, isAbortError } from '../abort/index.ts';
import { redactSecret } from './errors.ts';

describe('redactSecret', () => {
  it('replaces every occurrence of the secret', () => {
    expect(redactSecret('key sk-abc123 and sk-abc123', 'sk-abc123')).toBe('key [redacted] and [redacted]');
  });

  it('leaves text alone without a usable secret', () => {
    expect(redactSecret('abc', undefined)).toBe('abc');
    expect(redactSecret('abc', 'a')).toBe('abc');
  });
});

describe('isAbortError', () => {
  it('recognises AbortError by name', () => {
    expect(isAbortError(abortError())).toBe(true);
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
  });
});
