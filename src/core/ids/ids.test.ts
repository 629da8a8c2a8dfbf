import { describe, expect, it } from 'vitest';
import { compareRuns } from '../eval/index.ts';
import { idRecord } from './ids.ts';
import { redactValue } from '../secrets/index.ts';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('maps keyed by user ids', () => {
  it('idRecord keeps every id as an ordinary key', () => {
    const record = idRecord<number>();
    HOSTILE.forEach((id, i) => (record[id] = i));
    expect(Object.keys(record)).toEqual(HOSTILE);
    expect(JSON.stringify(record)).toBe('{"__proto__":0,"constructor":1,"toString":2,"hasOwnProperty":3}');
    expect(idRecord<number>().constructor).toBeUndefined();
  });

  it('compareRuns keeps a per-query delta for every hostile query id', () => {
    const qrels = new Map(HOSTILE.map((q) => [q, new Map([['d1', 1]])]));
    const base = new Map(HOSTILE.map((q) => [q, [{ id: 'd1', score: 1 }]]));
    const other = new Map(HOSTILE.map((q) => [q, [{ id: 'x', score: 2 }, { id: 'd1', score: 1 }]]));
    const [row] = compareRuns(base, new Map([['other', other]]), qrels, ['RR']);
    expect(Object.keys(row!.perQueryDelta).sort()).toEqual([...HOSTILE].sort());
    expect(Object.values(row!.perQueryDelta)).toEqual([-0.5, -0.5, -0.5, -0.5]);
  });

  it('copies of user objects keep a "__proto__" key as data', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "title": "t"}') as Record<string, unknown>;
    const copy = redactValue(parsed) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__', 'title']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
