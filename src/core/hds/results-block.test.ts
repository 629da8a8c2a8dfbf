import { describe, expect, it } from 'vitest';
import { mergeTurnResults, serializeResultsBlock } from './results-block.ts';

describe('results block (the reference, docs/decisions.md#hds-reference)', () => {
  it('writes one labelled line per query between the tokens', () => {
    const block = serializeResultsBlock(
      [
        { query: 'a', kind: 'ok', texts: ['low'] },
        { query: 'b', kind: 'ok', texts: ['high', '', 'more'] },
        { query: 'c', kind: 'ok', texts: [''] },
        { query: 'd', kind: 'failed' },
      ],
      'spaces',
    );
    expect(block).toBe(
      '<|begin search results|>\na: low\nb: high more\nc:\nd: [retrieval failed]\n<|end search results|>',
    );
  });

  it('H1: uses the underscore tokens when the model did', () => {
    expect(serializeResultsBlock([{ query: 'q', kind: 'ok', texts: ['t'] }], 'underscores')).toBe(
      '<|begin_search_results|>\nq: t\n<|end_search_results|>',
    );
  });

  it('H5: a repeated query says where it was searched', () => {
    expect(serializeResultsBlock([{ query: 'q', kind: 'repeat', firstTurn: 2 }], 'spaces')).toBe(
      '<|begin search results|>\nq: [already searched in turn 2]\n<|end search results|>',
    );
  });
});

describe('mergeTurnResults (the reference, docs/decisions.md#hds-reference)', () => {
  it('the reference example: ties broken by string id', () => {
    const ids = mergeTurnResults([
      [
        { id: '5', score: 0.1, text: 'A' },
        { id: '4', score: 0.1, text: 'B' },
        { id: '10', score: 0.5, text: '' },
      ],
    ]);
    expect(ids).toEqual(['10', '4', '5']);
  });

  it('keeps the highest score of a document across queries', () => {
    const ids = mergeTurnResults([
      [
        { id: 'x', score: 0.2, text: '' },
        { id: 'y', score: 0.5, text: '' },
      ],
      [{ id: 'x', score: 0.9, text: '' }],
    ]);
    expect(ids).toEqual(['x', 'y']);
  });

  it('NaN counts as 0 and infinities sort correctly', () => {
    const ids = mergeTurnResults([
      [
        { id: 'n', score: Number.NaN, text: '' },
        { id: 'm', score: -1, text: '' },
        { id: 'i', score: Number.POSITIVE_INFINITY, text: '' },
        { id: 'j', score: Number.POSITIVE_INFINITY, text: '' },
      ],
    ]);
    expect(ids).toEqual(['i', 'j', 'n', 'm']);
  });
});
