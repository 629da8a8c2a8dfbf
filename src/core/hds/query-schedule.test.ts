import { describe, expect, it } from 'vitest';
import { scheduleQueries } from './query-schedule.ts';

describe('scheduleQueries (H5 and the parallel cap)', () => {
  it('answers repeats from the log, caps the new queries, then cuts by the remaining budget', () => {
    const s = scheduleQueries(['old', 'a', 'b', 'c', 'd'], new Map([['old', 1]]), 3, 2);
    expect(s.repeated).toEqual([{ query: 'old', firstTurn: 1 }]);
    expect(s.executed).toEqual(['a', 'b']);
    expect(s.cutByBudget).toEqual(['c']);
    expect(s.cutByCap).toEqual(['d']);
    expect(s.entries).toEqual([{ query: 'old', kind: 'repeat', firstTurn: 1 }, { query: 'a', kind: 'run' }, { query: 'b', kind: 'run' }]);
  });

  it('keeps repeats out of the parallel cap', () => {
    const s = scheduleQueries(['x', 'y', 'new'], new Map([['x', 1], ['y', 2]]), 1, 8);
    expect(s.executed).toEqual(['new']);
    expect(s.cutByCap).toEqual([]);
  });
});
