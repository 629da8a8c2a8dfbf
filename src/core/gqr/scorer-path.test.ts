import { describe, expect, it } from 'vitest';
import type { GqrInput } from './input.ts';
import { chooseScorerPath, resolveScorerMode } from './scorer-path.ts';
import { CosineScorer, IdentityScorer, MaxSimScorer } from './scorers.ts';

const primaryScores = Float64Array.from([0.9, 0.5]);
const pool = ['m011', 'm012'];
const base: GqrInput = { primary: [], complementary: [] };

describe('resolveScorerMode', () => {
  it('auto follows the primary search mode; explicit modes stay', () => {
    expect(resolveScorerMode('auto')).toBe('single');
    expect(resolveScorerMode('auto', 'single')).toBe('single');
    expect(resolveScorerMode('auto', 'multi')).toBe('multi');
    expect(resolveScorerMode('single', 'multi')).toBe('single');
    expect(resolveScorerMode('multi', 'single')).toBe('multi');
  });
});

describe('chooseScorerPath', () => {
  const embeddings = new Map([
    ['m011', [1, 0]],
    ['m012', [0, 1]],
  ]);

  it('uses cosine when the query and every candidate have an embedding', () => {
    const query = [0.6, 0.8];
    const choice = chooseScorerPath({ ...base, queryEmbedding: query, candidateEmbeddings: embeddings }, pool, primaryScores, 'auto');
    expect(choice.path).toBe('single');
    expect(choice.scorer).toBe('single');
    expect(choice.reason).toBe('query and all 2 candidates have single-vector embeddings');
    expect(choice.queryScorer).toBeInstanceOf(CosineScorer);
    expect(Array.from(choice.params)).toEqual(query);
    choice.params[0] = 99;
    expect(query[0]).toBe(0.6);
  });

  it('falls back to score space, starting from the primary scores, and says why', () => {
    const cases: [GqrInput, string][] = [
      [{ ...base, candidateEmbeddings: embeddings }, 'no query embedding'],
      [{ ...base, queryEmbedding: null, candidateEmbeddings: embeddings }, 'no query embedding'],
      [{ ...base, queryEmbedding: [1, 0] }, 'candidate m011 has no embedding'],
      [{ ...base, queryEmbedding: [1, 0], candidateEmbeddings: new Map([['m011', [1, 0]]]) }, 'candidate m012 has no embedding'],
    ];
    for (const [input, reason] of cases) {
      const choice = chooseScorerPath(input, pool, primaryScores, 'single');
      expect(choice.path).toBe('score-space');
      expect(choice.reason).toBe(reason);
      expect(choice.queryScorer).toBeInstanceOf(IdentityScorer);
      expect(Array.from(choice.params)).toEqual([0.9, 0.5]);
      expect(choice.params).not.toBe(primaryScores);
    }
  });

  it('uses MaxSim in multi mode, ignoring single-vector embeddings', () => {
    const input: GqrInput = {
      ...base,
      primarySearchMode: 'multi',
      queryEmbedding: [1, 0],
      candidateEmbeddings: embeddings,
      queryMultiEmbedding: [[1, 0], [0, 1], [1, 1]],
      candidateMultiEmbeddings: new Map([
        ['m011', [[1, 0]]],
        ['m012', [[0, 1], [1, 1]]],
      ]),
    };
    const choice = chooseScorerPath(input, pool, primaryScores, 'auto');
    expect(choice.path).toBe('multi');
    expect(choice.queryScorer).toBeInstanceOf(MaxSimScorer);
    expect(Array.from(choice.params)).toEqual([1, 0, 0, 1, 1, 1]);
    const single = chooseScorerPath({ ...input, queryMultiEmbedding: null }, pool, primaryScores, 'auto');
    expect(single.path).toBe('score-space');
    expect(single.reason).toBe('no query multi-vector embedding');
  });

  it('multi mode falls back when a candidate lacks a multi-vector embedding', () => {
    const input: GqrInput = {
      ...base,
      queryMultiEmbedding: [[1, 0]],
      candidateMultiEmbeddings: new Map([['m011', [[1, 0]]]]),
    };
    const choice = chooseScorerPath(input, pool, primaryScores, 'multi');
    expect(choice.path).toBe('score-space');
    expect(choice.reason).toBe('candidate m012 has no multi-vector embedding');
  });

  it('reports an empty pool', () => {
    expect(chooseScorerPath(base, [], new Float64Array(0), 'auto').reason).toBe('candidate pool is empty');
  });

  it('throws on embedding dimension mismatches', () => {
    expect(() =>
      chooseScorerPath({ ...base, queryEmbedding: [1, 0, 0], candidateEmbeddings: embeddings }, pool, primaryScores, 'single'),
    ).toThrow('embedding dimension mismatch: candidate m011 has 2, query has 3');
    expect(() =>
      chooseScorerPath(
        { ...base, queryMultiEmbedding: [[1, 0]], candidateMultiEmbeddings: new Map([['m011', [[1, 0]]], ['m012', [[1]]]]) },
        pool,
        primaryScores,
        'multi',
      ),
    ).toThrow('embedding dimension mismatch: candidate m012 has 1, query has 2');
    expect(() =>
      chooseScorerPath({ ...base, queryMultiEmbedding: [[1, 0], [1]] }, pool, primaryScores, 'multi'),
    ).toThrow('embedding dimension mismatch: query vector 1 has 1, query vector 0 has 2');
  });
});
