import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MemoryCorpusStore } from '../storage/index.ts';
import { CorpusLoadError, loadCorpus } from '../loader/index.ts';
import { collectIngest, jsonl } from './fixtures/collect.ts';
import { memorySource } from './fixtures/memory-source.ts';
import { MAX_METADATA_DEPTH } from './metadata-limits.ts';
import type { FileSource } from './source.ts';
import { INVALID_UTF8_REASON } from './text-decoding.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...utf8(p)] : p)));

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) out.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + 2 * i);
  return out;
}

/** A stored zip whose entries claim another compression method (12 = bzip2) in both headers. */
function zipWithMethod(files: Record<string, string>, method: number): Uint8Array {
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), { level: 0 });
  const view = new DataView(zip.buffer);
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint16(i + 8, method, true);
    if (sig === 0x02014b50) view.setUint16(i + 10, method, true);
  }
  return zip;
}

/** A deflated zip whose entry data does not inflate (as with ZipCrypto-encrypted data), flagged encrypted. */
function undecodableZip(): Uint8Array {
  const zip = zipSync({ 'docs.jsonl': strToU8(jsonl({ id: 'a', text: 'some text to deflate' })) }, { level: 6 });
  const view = new DataView(zip.buffer);
  view.setUint16(6, view.getUint16(6, true) | 1, true); // general purpose flag bit 0: encrypted
  const dataAt = 30 + view.getUint16(26, true) + view.getUint16(28, true);
  zip[dataAt] = 0x07; // BFINAL=1, BTYPE=11: a reserved deflate block type
  return zip;
}

async function failedLoad(sources: FileSource[]): Promise<CorpusLoadError> {
  const error = await loadCorpus(sources, { name: 'bad' }, new MemoryCorpusStore()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CorpusLoadError);
  return error as CorpusLoadError;
}

describe('a load in which no document survives', () => {
  const goodZip = zipSync({ 'docs.jsonl': strToU8(jsonl({ id: 'a', text: 'x' })) });
  const cases: Array<[string, FileSource[], RegExp]> = [
    ['an empty corpus file', [memorySource('corpus.jsonl', '')], /holds no records/],
    ['all lines bad', [memorySource('docs.jsonl', jsonl({ id: 'a', title: 'no text' }, '{broken'))], /invalid JSON|empty text/],
    ['a binary .txt', [memorySource('blob.txt', bytes([0x50, 0x4b, 0, 0, 7, 8, 9], 'rest'))], /binary file.*not read/],
    ['a broken zip', [memorySource('set.zip', goodZip.subarray(0, 30))], /unreadable zip archive|no files found in the zip/],
    ['a bzip2 zip', [memorySource('set.zip', zipWithMethod({ 'docs.jsonl': jsonl({ id: 'a', text: 'x' }) }, 12))], /compression method 12/],
    ['an encrypted or damaged zip entry', [memorySource('set.zip', undecodableZip())], /could not be inflated \(damaged or encrypted\?\)/],
    ['an empty zip', [memorySource('set.zip', zipSync({}))], /no files found in the zip/],
    ['unguessable fields', [memorySource('docs.jsonl', jsonl({ key: 'a', words: 'x' }))], /cannot guess the field mapping/],
  ];
  for (const [what, sources, reason] of cases) {
    it(`carries its issues, with file and reason: ${what}`, async () => {
      const error = await failedLoad(sources);
      expect(error.summary.issueCount).toBeGreaterThan(0);
      expect(error.summary.issues.length).toBe(error.summary.issueCount);
      expect(error.summary.issues.some((i) => reason.test(i.reason))).toBe(true);
      for (const issue of error.summary.issues) expect(issue.file).not.toBe('');
      expect(error.message).toContain('listed below');
    });
  }

  it('names the line and field of each bad record', async () => {
    const error = await failedLoad([memorySource('docs.jsonl', jsonl({ id: 'a', text: '  ' }, '{broken'))]);
    expect(error.summary.issues).toEqual([
      { file: 'docs.jsonl', line: 1, field: 'text', reason: "empty text (field 'text')" },
      { file: 'docs.jsonl', line: 2, reason: expect.stringMatching(/^invalid JSON/) },
    ]);
  });
});

describe('NUL bytes (issue case 9)', () => {
  it('one NUL byte refuses only its line: the other lines of a JSONL file are kept', async () => {
    const text = `${jsonl({ id: 'd1', text: 'first' })}{"id":"d2","text":"nul\u0000here"}\n`.replace('\\u0000', '\0') + jsonl({ id: 'd3', text: 'third' });
    const { documents, summary } = await collectIngest([memorySource('docs.jsonl', text)]);
    expect(documents.map((d) => d.id)).toEqual(['d1', 'd3']);
    expect(summary.issues).toEqual([{ file: 'docs.jsonl', line: 2, reason: 'the line holds a NUL byte (at character 23), so it is not read' }]);
  });

  it('one NUL byte refuses only its row of a CSV file, naming the column', async () => {
    const { documents, summary } = await collectIngest([memorySource('docs.csv', 'id,text\n1,alpha\n2,be\0ta\n3,gamma\n')]);
    expect(documents.map((d) => d.id)).toEqual(['1', '3']);
    expect(summary.issues).toEqual([{ file: 'docs.csv', line: 3, reason: "the row holds a NUL byte in column 'text', so it is not read" }]);
  });

  it('a file of only NUL bytes is called that, not UTF-16', async () => {
    const error = await failedLoad([memorySource('zeros.jsonl', new Uint8Array(300))]);
    expect(error.summary.issues.map((i) => i.reason)).toEqual(['could not read the file: it holds nothing but NUL bytes (300 of 300 bytes), so it is not read']);
  });
});

describe('whitespace in ids (issue case 10)', () => {
  it('one rule: whitespace of any kind at the ends is trimmed and reported, inside it is refused', async () => {
    const { documents, queries, summary } = await collectIngest([
      memorySource('corpus.jsonl', jsonl({ _id: ' d3 ', text: 'a' }, { _id: '\td4', text: 'b' }, { _id: '\u00a0d5\u00a0', text: 'c' }, { _id: 'd\u00a06', text: 'd' }, { _id: 'd7', text: 'e' }), { path: 's/corpus.jsonl' }),
      memorySource('queries.jsonl', jsonl({ _id: 'q1 ', text: 'one' }), { path: 's/queries.jsonl' }),
    ]);
    expect(documents.map((d) => d.id)).toEqual(['d3', 'd4', 'd5', 'd7']);
    expect(queries.map((q) => q.id)).toEqual(['q1']);
    expect(summary.issues).toEqual([
      { file: 's/corpus.jsonl', line: 1, field: '_id', reason: `document id " d3 " has whitespace at its ends: it is read as 'd3', the record kept` },
      { file: 's/corpus.jsonl', line: 2, field: '_id', reason: `document id "\\td4" has whitespace at its ends: it is read as 'd4', the record kept` },
      { file: 's/corpus.jsonl', line: 3, field: '_id', reason: `document id "\u00a0d5\u00a0" has whitespace at its ends: it is read as 'd5', the record kept` },
      { file: 's/corpus.jsonl', line: 4, field: '_id', reason: expect.stringContaining("document id 'd\u00a06' contains whitespace") },
      { file: 's/queries.jsonl', line: 1, field: '_id', reason: `query id "q1 " has whitespace at its ends: it is read as 'q1', the record kept` },
    ]);
  });
});

describe('qrels grades and repeated judgements in the loader (issue cases 11 and 12)', () => {
  const beir = (qrels: string) => [
    memorySource('corpus.jsonl', jsonl({ _id: 'd1', text: 'a' }, { _id: 'd2', text: 'b' }), { path: 's/corpus.jsonl' }),
    memorySource('queries.jsonl', jsonl({ _id: 'q1', text: 'one' }), { path: 's/queries.jsonl' }),
    memorySource('test.tsv', qrels, { path: 's/qrels/test.tsv' }),
  ];

  it('refuses absurd grades, reports a pair judged twice with different grades, keeps an identical repeat once', async () => {
    const { qrels, summary } = await collectIngest(beir('query-id\tcorpus-id\tscore\nq1\td1\t1e308\nq1\td2\t1\nq1\td2\t2\nq1\td1\t1\nq1\td1\t1\n'));
    expect(qrels).toEqual([
      { queryId: 'q1', docId: 'd2', relevance: 1 },
      { queryId: 'q1', docId: 'd2', relevance: 2 },
      { queryId: 'q1', docId: 'd1', relevance: 1 },
    ]);
    expect(summary.issues).toEqual([
      { file: 's/qrels/test.tsv', line: 2, field: 'score', reason: "score '1e308' is out of range: grades go from -1000 to 1000" },
      { file: 's/qrels/test.tsv', line: 4, field: 'score', reason: "query 'q1' document 'd2' was judged 1 on line 3; the last judgement (2) is used" },
    ]);
  });

  it('names the only line of a qrels file whose grade is not a number, instead of taking it silently as a header', async () => {
    const { qrels, summary } = await collectIngest(beir('q1\td1\tabc\n'));
    expect(qrels).toEqual([]);
    expect(summary.issues).toEqual([{ file: 's/qrels/test.tsv', line: 1, field: 'score', reason: "score 'abc' is not a number (taken as a header row, and no judgement follows)" }]);
  });
});

describe('encodings and line breaks', () => {
  it('reads a BEIR set with CR-only line breaks: every document, query and judgement', async () => {
    const { documents, queries, qrels, summary } = await collectIngest([
      memorySource('corpus.jsonl', '{"_id":"d1","text":"one"}\r{"_id":"d2","text":"two"}\r', { path: 's/corpus.jsonl' }),
      memorySource('queries.jsonl', '{"_id":"q1","text":"one"}\r', { path: 's/queries.jsonl' }),
      memorySource('test.tsv', 'query-id\tcorpus-id\tscore\rq1\td1\t1\rq1\td2\t0\r', { path: 's/qrels/test.tsv' }),
    ]);
    expect(summary.issues).toEqual([]);
    expect(documents.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(queries.map((q) => q.id)).toEqual(['q1']);
    expect(qrels).toHaveLength(2);
  });

  it('reads a CSV with CR-only line breaks', async () => {
    const { documents } = await collectIngest([memorySource('docs.csv', 'id,text\r1,alpha\r2,"beta\rgamma"\r')]);
    expect(documents.map((d) => [d.id, d.text])).toEqual([
      ['1', 'alpha'],
      ['2', 'beta\ngamma'],
    ]);
  });

  it('decodes a UTF-16 corpus by its byte-order mark', async () => {
    const { documents, summary } = await collectIngest([memorySource('docs.jsonl', utf16le(jsonl({ id: 'é1', text: 'naïve café' })), { chunkSize: 3 })]);
    expect(summary.issues).toEqual([]);
    expect(documents).toEqual([{ id: 'é1', title: '', text: 'naïve café' }]);
  });

  it('never merges Latin-1 ids into one: their lines are reported, and the Latin-1 option reads them apart', async () => {
    // café and cafè in Latin-1: both would become 'caf\uFFFD' if decoded as UTF-8 with replacement.
    const latin1 = bytes('{"id":"caf', [0xe9], '","text":"one"}\n{"id":"caf', [0xe8], '","text":"two"}\n{"id":"plain","text":"three"}\n');
    const utf = await collectIngest([memorySource('docs.jsonl', latin1)]);
    expect(utf.documents.map((d) => d.id)).toEqual(['plain']);
    expect(utf.summary.issues).toEqual([
      { file: 'docs.jsonl', line: 1, reason: INVALID_UTF8_REASON },
      { file: 'docs.jsonl', line: 2, reason: INVALID_UTF8_REASON },
    ]);
    const read = await collectIngest([memorySource('docs.jsonl', latin1)], { encoding: 'latin1' });
    expect(read.documents.map((d) => d.id)).toEqual(['café', 'cafè', 'plain']);
    expect(read.summary.issues).toEqual([]);
  });

  it('rejects an unknown encoding option', async () => {
    await expect(collectIngest([memorySource('a.txt', 'x')], { encoding: 'ebcdic' as never })).rejects.toThrow(/encoding must be one of utf-8, latin1/);
  });
});

describe('ids with whitespace', () => {
  it('rejects document and query ids holding whitespace, line by line, and percent-encodes file-name ids', async () => {
    const { documents, queries, summary } = await collectIngest([
      memorySource('corpus.jsonl', jsonl({ _id: 'a b', text: 'x' }, { _id: 'ok', text: 'y' }, { _id: 'tab\there', text: 'z' })),
      memorySource('queries.jsonl', jsonl({ _id: 'q 1', text: 'x' }, { _id: 'q2', text: 'y' })),
    ]);
    expect(documents.map((d) => d.id)).toEqual(['ok']);
    expect(queries.map((q) => q.id)).toEqual(['q2']);
    expect(summary.issues.map((i) => [i.file, i.line, i.field])).toEqual([
      ['corpus.jsonl', 1, '_id'],
      ['corpus.jsonl', 3, '_id'],
      ['queries.jsonl', 1, '_id'],
    ]);
    expect(summary.issues[0]!.reason).toMatch(/document id 'a b' contains whitespace, which a TREC run or qrels file cannot hold/);
    const text = await collectIngest([memorySource('my notes.txt', 'some words', { path: 'dir one/my notes.txt' })]);
    expect(text.documents.map((d) => d.id)).toEqual(['dir%20one/my%20notes.txt']);
  });
});

describe('deeply nested metadata', () => {
  function nested(depth: number): unknown {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = { down: value };
    return value;
  }

  it('drops a field nested 5,000 levels deep from that record, reports it, and keeps the record and the others', async () => {
    const line = `{"id":"deep","text":"kept","source":"wiki","tree":${'{"down":'.repeat(5000)}"bottom"${'}'.repeat(5000)}}`;
    const { documents, summary } = await collectIngest([memorySource('docs.jsonl', jsonl({ id: 'a', text: 'first' }, line, { id: 'b', text: 'last', tree: nested(3) }))]);
    expect(documents.map((d) => d.id)).toEqual(['a', 'deep', 'b']);
    expect(documents[1]).toEqual({ id: 'deep', title: '', text: 'kept', metadata: { source: 'wiki' } });
    expect(documents[2]!.metadata).toEqual({ tree: nested(3) });
    expect(summary.issues).toEqual([
      { file: 'docs.jsonl', line: 2, field: 'tree', reason: `metadata field 'tree' is nested deeper than ${MAX_METADATA_DEPTH} levels: it was dropped, the record kept` },
    ]);
    expect(() => structuredClone(documents)).not.toThrow();
  });

  it('drops metadata too large for one record', async () => {
    const { documents, summary } = await collectIngest([memorySource('docs.jsonl', jsonl({ id: 'a', text: 't', small: 's', huge: 'x'.repeat(300_000) }))]);
    expect(documents[0]!.metadata).toEqual({ small: 's' });
    expect(summary.issues.map((i) => i.field)).toEqual(['huge']);
  });
});
