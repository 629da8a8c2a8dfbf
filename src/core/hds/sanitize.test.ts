import { describe, expect, it } from 'vitest';
import { sanitizedRetrievalError } from './sanitize.ts';

class RuntimeError extends Error {}

describe('sanitizedRetrievalError', () => {
  it('keeps the error name and drops the message', () => {
    expect(sanitizedRetrievalError(new TypeError('dsn=postgres://u:SECRET@h/db'))).toBe('TypeError: retrieval failed');
  });

  it('uses the class name when the name was not set', () => {
    expect(sanitizedRetrievalError(new RuntimeError('x'))).toBe('RuntimeError: retrieval failed');
  });

  it('never lets a name that is not an identifier through', () => {
    const err = new Error('x');
    err.name = 'password=SECRET';
    expect(sanitizedRetrievalError(err)).toBe('Error: retrieval failed');
    expect(sanitizedRetrievalError('SECRET string')).toBe('Error: retrieval failed');
  });
});
