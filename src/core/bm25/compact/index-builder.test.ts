import { describe, expect, it } from 'vitest';
import { freqAt, joinDocs, unpackFreqs } from './compact-index.ts';
import { CompactIndexBuilder } from './index-builder.ts';
import { stringAt, unpackStrings } from './string-table.ts';

const docs: Array<[string, string[]]> = [
  ['a', ['salt', 'harbour', 'salt']],
  ['b', ['ferry']],
  ['c', []],
  ['d', ['harbour', 'quay', 'ferry', 'ferry', 'ferry']],
  ['e', ['salt']],
];

function build(chunkPostings?: number) {
  const builder = new CompactIndexBuilder(chunkPostings);
  for (const [id, terms] of docs) builder.add(id, terms);
  return builder.build();
}

describe('CompactIndexBuilder', () => {
  it('writes sorted terms, document-ordered postings with frequencies, lengths and MiniSearch’s running mean', () => {
    const index = build();
    expect(unpackStrings(index.terms)).toEqual(['ferry', 'harbour', 'quay', 'salt']);
    expect(unpackStrings(index.ids)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...index.lengths]).toEqual([3, 1, 0, 5, 1]);
    expect([...index.termStarts]).toEqual([0, 2, 4, 5, 7]);
    expect([...joinDocs(index.termStarts, index.postingDocs)]).toEqual([1, 3, 0, 3, 3, 0, 4]);
    expect([...index.postingDocs.low]).toEqual([1, 3, 0, 3, 3, 0, 4]);
    expect([...index.postingDocs.termRuns]).toEqual([0, 1, 2, 3, 4]);
    expect([...unpackFreqs(index.postingFreqs, 7)]).toEqual([1, 3, 1, 1, 1, 2, 1]);
    // two a byte, frequency − 1 (1 3 | 1 1 | 1 2 | 1)
    expect([...index.postingFreqs.nibbles]).toEqual([0x20, 0x00, 0x10, 0x00]);
    let mean = 0;
    docs.forEach(([, terms], i) => (mean = (mean * i + terms.length) / (i + 1)));
    expect(index.averageLength).toBe(mean);
    expect(stringAt(index.ids, 3)).toBe('d');
  });

  it('builds the same index whatever the chunk size', () => {
    const whole = build();
    for (const chunk of [1, 2, 3]) expect(build(chunk)).toEqual(whole);
  });

  it('continues an existing index', () => {
    const first = new CompactIndexBuilder(2);
    for (const [id, terms] of docs.slice(0, 2)) first.add(id, terms);
    const builder = CompactIndexBuilder.extending(first.build(), 2);
    for (const [id, terms] of docs.slice(2)) builder.add(id, terms);
    expect(builder.build()).toEqual(build());
  });

  it('keeps frequencies above 15 beside the 4-bit ones, also when an extended index gains the first', () => {
    const first = new CompactIndexBuilder();
    first.add('x', ['egg', 'spam']);
    const narrow = first.build();
    expect(narrow.postingFreqs.large).toHaveLength(0);
    const builder = CompactIndexBuilder.extending(narrow);
    builder.add('y', Array.from({ length: 256 }, () => 'spam'));
    builder.add('z', [...Array.from({ length: 15 }, () => 'egg'), ...Array.from({ length: 16 }, () => 'spam')]);
    const index = builder.build();
    // egg: x 1, z 15; spam: x 1, y 256, z 16
    expect([...unpackFreqs(index.postingFreqs, 5)]).toEqual([1, 15, 1, 256, 16]);
    expect([0, 1, 2, 3, 4].map((p) => freqAt(index.postingFreqs, p))).toEqual([1, 15, 1, 256, 16]);
    expect([...index.postingFreqs.largeAt]).toEqual([3, 4]);
    expect(unpackFreqs(index.postingFreqs, 5)).toBeInstanceOf(Uint16Array);
  });

  it('rejects a duplicate id and keeps frequencies above 65,535 in 32 bits', () => {
    const builder = new CompactIndexBuilder();
    builder.add('x', Array.from({ length: 70_000 }, () => 'spam'));
    expect(() => builder.add('x', ['egg'])).toThrow('Duplicate document id x');
    const index = builder.build();
    expect(unpackFreqs(index.postingFreqs, 1)).toBeInstanceOf(Uint32Array);
    expect(freqAt(index.postingFreqs, 0)).toBe(70_000);
  });
});
