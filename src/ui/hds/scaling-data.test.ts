import { describe, expect, it } from 'vitest';
import type { BatchAggregate, BatchVariant } from '../../core/index.ts';
import { measuredTicks, scalingCsv, scalingPoints } from './scaling-data.ts';

const variant = (value: number): BatchVariant => ({
  id: `hds-${value}`,
  label: `HDS max_search_calls=${value}`,
  method: 'hds',
  settings: {} as BatchVariant['settings'],
  sweep: { param: 'maxSearchCalls', value },
});
const aggregate = (value: number, f1: number | null): BatchAggregate => ({
  variantId: `hds-${value}`,
  questions: 3,
  failed: 0,
  em: f1 === null ? null : f1 / 2,
  f1,
  evidenceRecall: 0.5,
  turns: 2,
  searchCalls: 1,
  latencyMs: 10,
  tokens: 100,
});

describe('scaling chart data', () => {
  const variants = [variant(8), variant(1), variant(4), variant(2)];
  const points = scalingPoints(variants, [aggregate(1, 0.2), aggregate(2, 0.4), aggregate(8, 1 / 3)]);

  it('has one point per measured budget in ascending order, null where nothing was scored yet', () => {
    expect(points.map((p) => p.value)).toEqual([1, 2, 4, 8]);
    expect(points[2]).toEqual({ value: 4, f1: null, em: null, evidence: null, questions: 0 });
    expect(points[3]!.f1).toBe(1 / 3);
  });

  it('ticks exactly at the measured budgets (1, 2, 4, 8), not at round numbers in between', () => {
    expect(measuredTicks(points)).toEqual([1, 2, 4, 8]);
    expect(measuredTicks([{ value: 3 }, { value: 1 }, { value: 3 }])).toEqual([1, 3]);
  });

  it('exports the points as CSV at full precision', () => {
    expect(scalingCsv(points, 'maxSearchCalls').split('\r\n')).toEqual([
      'max_search_calls,questions,EM,F1,evidence recall',
      '1,3,0.1,0.2,0.5',
      '2,3,0.2,0.4,0.5',
      '4,0,,,',
      `8,3,${1 / 6},${1 / 3},0.5`,
      '',
    ]);
  });
});
