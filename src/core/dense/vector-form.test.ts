import { describe, expect, it } from 'vitest';
import { compactFormOf, COMPACT_FROM_ROWS, resolveVectorForm } from './vector-form.ts';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { testModel } from './test-fixtures.ts';
import { VectorMatrix } from './vector-matrix.ts';

describe('resolveVectorForm', () => {
  it('keeps exact float32 below 200,000 rows and picks int8 from there, unless told', () => {
    expect(COMPACT_FROM_ROWS).toBe(200_000);
    expect(resolveVectorForm(undefined, 199_999)).toBe('float32');
    expect(resolveVectorForm('auto', 200_000)).toBe('int8');
    expect(resolveVectorForm('binary', 10)).toBe('binary');
    expect(resolveVectorForm('float32', 5_000_000)).toBe('float32');
    expect(() => resolveVectorForm('int4' as never, 10)).toThrow(/Unknown vector form "int4"/);
  });

  it('makes the compact form of a matrix once', () => {
    const matrix = new VectorMatrix({ model: testModel(8) });
    matrix.addBatch(['a', 'b'], randomRows(seededRandom(3), 2, 8));
    expect(compactFormOf(matrix)).toBe(compactFormOf(matrix));
    expect(compactFormOf(matrix).size).toBe(2);
  });
});
