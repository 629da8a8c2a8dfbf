import { describe, expect, it } from 'vitest';
import { formatTemplate, TemplateError } from './template.ts';

describe('formatTemplate (Python str.format semantics)', () => {
  it('substitutes named placeholders', () => {
    expect(formatTemplate('{a} and {b}', { a: 'x', b: 2 })).toBe('x and 2');
  });

  it('turns doubled braces into literal braces', () => {
    expect(formatTemplate('\\\\boxed{{...}} {a}', { a: 'q' })).toBe('\\\\boxed{...} q');
  });

  it('does not re-parse substituted values', () => {
    expect(formatTemplate('Q: {query}', { query: '{turn} }{' })).toBe('Q: {turn} }{');
  });

  it('rejects an unknown placeholder', () => {
    expect(() => formatTemplate('{nope}', { a: 1 })).toThrow(TemplateError);
    expect(() => formatTemplate('{nope}', { a: 1 })).toThrow('Unknown placeholder {nope}');
  });

  it('rejects lone braces', () => {
    expect(() => formatTemplate('a } b', {})).toThrow("Single '}'");
    expect(() => formatTemplate('a { b', {})).toThrow("Single '{'");
  });
});
