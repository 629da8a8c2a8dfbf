import { describe, expect, it } from 'vitest';
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
    expect([...index.postingDocs]).toEqual([1, 3, 0, 3, 3, 0, 4]);
    expect([...index.postingFreqs]).toEqual([1, 3, 1, 1, 1, 2, 1]);
    expect(index.postingFreqs).toBeInstanceOf(Uint8Array);
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

  it('keeps frequencies above 255 in 16 bits, also when an extended index gains the first', () => {
    const first = new CompactIndexBuilder();
    first.add('x', ['egg']);
    const narrow = first.build();
    expect(narrow.postingFreqs).toBeInstanceOf(Uint8Array);
    const builder = CompactIndexBuilder.extending(narrow);
    builder.add('y', Array.from({ length: 256 }, () => 'spam'));
    const index = builder.build();
    expect(index.postingFreqs).toBeInstanceOf(Uint16Array);
    expect([...index.postingFreqs]).toEqual([1, 256]);
  });

  it('rejects a duplicate id and keeps frequencies above 65,535 in 32 bits', () => {
    const builder = new CompactIndexBuilder();
    builder.add('x', Array.from({ length: 70_000 }, () => 'spam'));
    expect(() => builder.add('x', ['egg'])).toThrow('Duplicate document id x');
    const index = builder.build();
    expect(index.postingFreqs).toBeInstanceOf(Uint32Array);
    expect(index.postingFreqs[0]).toBe(70_000);
  });
});
