import { openAsBlob } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { collectIngest, jsonl } from './fixtures/collect.ts';
import { generatedSource, memorySource } from './fixtures/memory-source.ts';
import { ingest } from './ingest.ts';
import type { IngestBatch } from './ingest-types.ts';
import { blobSource } from './source.ts';

const fixture = (path: string) => fileURLToPath(new URL(`./fixtures/mini-beir/${path}`, import.meta.url));

describe('ingest: BEIR', () => {
  it('reads a BEIR folder from disk through Node Blobs, with the test split by default', async () => {
    const paths = ['qrels/train.tsv', 'qrels/test.tsv', 'queries.jsonl', 'corpus.jsonl'];
    const sources = await Promise.all(paths.map(async (p) => blobSource(await openAsBlob(fixture(p)), p.split('/').pop()!, `mini-beir/${p}`)));
    const { summary, documents, queries, qrels } = await collectIngest(sources);
    expect(documents).toEqual([
      { id: 'd1', title: 'Cats', text: 'Cats purr when they are content.', metadata: { url: 'https://example.org/cats' } },
      { id: 'd2', title: 'Dogs', text: 'Dogs bark at strangers.' },
      { id: 'd3', title: '', text: 'Parrots can imitate human speech.' },
    ]);
    expect(queries).toEqual([
      { id: 'q1', text: 'why do cats purr', answers: ['contentment'] },
      { id: 'q2', text: 'which bird can talk' },
    ]);
    expect(qrels).toEqual([
      { queryId: 'q1', docId: 'd1', relevance: 2 },
      { queryId: 'q2', docId: 'd3', relevance: 1 },
      { queryId: 'q2', docId: 'd2', relevance: 0 },
    ]);
    expect(summary).toEqual({
      documents: 3,
      queries: 2,
      qrels: 3,
      issues: [],
      issueCount: 0,
      files: [
        { path: 'mini-beir/corpus.jsonl', kind: 'corpus', records: 3, skipped: 0 },
        { path: 'mini-beir/queries.jsonl', kind: 'queries', records: 2, skipped: 0 },
        { path: 'mini-beir/qrels/test.tsv', kind: 'qrels', split: 'test', records: 3, skipped: 0 },
        { path: 'mini-beir/qrels/train.tsv', kind: 'skipped', split: 'train', records: 0, skipped: 0 },
      ],
    });
  });

  // Every bad-input case, with a BOM, CRLF line breaks and no final line break in the corpus.
  const corpus =
    '\uFEFF' +
    [
      '{"_id":"d1","title":"First","text":"alpha beta"}',
      '{"_id":"d2","text":"gamma","lang":"en"}',
      '{"_id":"d3","text":',
      '["not","an","object"]',
      '{"title":"no id","text":"x"}',
      '{"_id":"","text":"empty id"}',
      '{"_id":"d4","title":"Only a title"}',
      '{"_id":"d5","title":"T","text":"   "}',
      '{"_id":"d1","text":"again"}',
      '',
      '{"_id":"d6","text":"last, no newline"}',
    ].join('\r\n');
  const queries = jsonl(
    { _id: 'q1', text: 'alpha?', answers: ['a1', 'a2'] },
    { _id: 'q2', text: 'gamma?', source: 'x' },
    { _id: 'q1', text: 'duplicate' },
    { _id: 'q3', text: '' },
    { _id: 'q4', text: 'orphan' },
  );
  const qrels = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1 d2  2\nq2\td6\nq2\td6\thigh\nq9\td1\t1\nq2\td9\t1\nq2\t0\td6\t1\n\nq4\td3\t1\n';

  it('skips every kind of bad record with an issue on its line and keeps the rest, whatever the file order', async () => {
    for (const chunkSize of [1, 7, 65536]) {
      const { summary, documents, queries: qs, qrels: rels } = await collectIngest([
        memorySource('test.tsv', qrels, { chunkSize, path: 'ds/qrels/test.tsv' }),
        memorySource('queries.jsonl', queries, { chunkSize, path: 'ds/queries.jsonl' }),
        memorySource('corpus.jsonl', corpus, { chunkSize, path: 'ds/corpus.jsonl' }),
      ]);
      expect(documents).toEqual([
        { id: 'd1', title: 'First', text: 'alpha beta' },
        { id: 'd2', title: '', text: 'gamma', metadata: { lang: 'en' } },
        { id: 'd6', title: '', text: 'last, no newline' },
      ]);
      expect(qs).toEqual([
        { id: 'q1', text: 'alpha?', answers: ['a1', 'a2'] },
        { id: 'q2', text: 'gamma?', metadata: { source: 'x' } },
        { id: 'q4', text: 'orphan' },
      ]);
      expect(rels).toEqual([
        { queryId: 'q1', docId: 'd1', relevance: 1 },
        { queryId: 'q1', docId: 'd2', relevance: 2 },
        { queryId: 'q2', docId: 'd6', relevance: 1 },
      ]);
      const c = 'ds/corpus.jsonl';
      const q = 'ds/queries.jsonl';
      const r = 'ds/qrels/test.tsv';
      expect(summary.issues.map((i) => [i.file, i.line, i.field])).toEqual([
        [c, 3, undefined],
        [c, 4, undefined],
        [c, 5, '_id'],
        [c, 6, '_id'],
        [c, 7, 'text'],
        [c, 8, 'text'],
        [c, 9, '_id'],
        [q, 3, '_id'],
        [q, 4, 'text'],
        [r, 4, undefined],
        [r, 5, 'score'],
        [r, 6, 'query-id'],
        [r, 7, 'corpus-id'],
        [r, 10, 'corpus-id'],
      ]);
      const reasons = summary.issues.map((i) => i.reason);
      expect(reasons[0]).toMatch(/^invalid JSON: /);
      expect(reasons[1]).toContain('not a JSON object');
      expect(reasons[2]).toContain('missing or empty id');
      expect(reasons[4]).toContain('empty text');
      expect(reasons[6]).toBe("duplicate document id 'd1' (first seen on line 1; the first is kept)");
      expect(reasons[7]).toBe("duplicate query id 'q1' (first seen on line 1; the first is kept)");
      expect(reasons[8]).toContain('empty query text');
      expect(reasons[9]).toContain('too few columns');
      expect(reasons[10]).toBe("score 'high' is not a number");
      expect(reasons[11]).toBe("unknown query id 'q9'");
      expect(reasons[12]).toBe("unknown document id 'd9'");
      expect(summary.issueCount).toBe(14);
      expect(summary.files).toEqual([
        { path: c, kind: 'corpus', records: 3, skipped: 7 },
        { path: q, kind: 'queries', records: 3, skipped: 2 },
        { path: r, kind: 'qrels', split: 'test', records: 3, skipped: 5 },
      ]);
    }
  });

  const smallBeir = {
    corpus: jsonl({ _id: 'a', text: 'x' }, { _id: 'b', text: 'y' }),
    queries: jsonl({ _id: 'q', text: 'z' }),
  };

  it('loads the asked qrels split, or every split when there is no test split', async () => {
    const files = (splits: string[]) => [
      memorySource('corpus.jsonl', smallBeir.corpus),
      memorySource('queries.jsonl', smallBeir.queries),
      ...splits.map((s, i) => memorySource(`${s}.tsv`, `q ${i === 0 ? 'a' : 'b'} 1\n`, { path: `qrels/${s}.tsv` })),
    ];
    const asked = await collectIngest(files(['train', 'test']), { qrelsSplit: 'train' });
    expect(asked.qrels).toEqual([{ queryId: 'q', docId: 'a', relevance: 1 }]);
    const all = await collectIngest(files(['train', 'dev']));
    expect(all.qrels.map((q) => q.docId).sort()).toEqual(['a', 'b']);
    expect(all.summary.files.filter((f) => f.kind === 'qrels').map((f) => f.split)).toEqual(['dev', 'train']);
    const missing = await collectIngest(files(['test']), { qrelsSplit: 'dev' });
    expect(missing.qrels).toEqual([]);
    expect(missing.summary.issues).toEqual([{ file: 'qrels/test.tsv', reason: "qrels split 'dev' not found (available: test)" }]);
  });

  it('keeps documents with empty text when asked, so their judgements stay (Cranfield 471 and 995)', async () => {
    const files = () => [
      memorySource('corpus.jsonl', '{"_id": "1", "title": "wings", "text": "lift of wings"}\n{"_id": "471", "title": "", "text": ""}\n{"_id": "9", "title": "Only a title"}\n', { path: 'c/corpus.jsonl' }),
      memorySource('queries.jsonl', '{"_id": "q1", "text": "wings"}\n', { path: 'c/queries.jsonl' }),
      memorySource('test.tsv', 'query-id\tcorpus-id\tscore\nq1\t1\t2\nq1\t471\t1\n', { path: 'c/qrels/test.tsv' }),
    ];
    const skipped = await collectIngest(files());
    expect(skipped.documents.map((d) => d.id)).toEqual(['1']);
    expect(skipped.qrels).toHaveLength(1);
    expect(skipped.summary.issues.map((i) => [i.line, i.reason])).toEqual(
      expect.arrayContaining([
        [2, "empty text (field 'text')"],
        [3, "empty text (field 'text')"],
      ]),
    );
    const kept = await collectIngest(files(), { keepEmptyDocuments: true });
    expect(kept.documents).toEqual([
      { id: '1', title: 'wings', text: 'lift of wings' },
      { id: '471', title: '', text: '' },
      { id: '9', title: 'Only a title', text: '' },
    ]);
    expect(kept.qrels).toEqual([
      { queryId: 'q1', docId: '1', relevance: 2 },
      { queryId: 'q1', docId: '471', relevance: 1 },
    ]);
    expect(kept.summary.issueCount).toBe(0);
  });

  it('reads a zip holding a BEIR folder one level deep, in tiny chunks', async () => {
    const zip = zipSync({
      'scifact/qrels/test.tsv': strToU8('query-id\tcorpus-id\tscore\nq\ta\t1\nq\tb\t0\n'),
      'scifact/queries.jsonl': strToU8(smallBeir.queries),
      'scifact/corpus.jsonl': strToU8(smallBeir.corpus),
      'scifact/': new Uint8Array(0),
    });
    const { summary, documents, queries: qs, qrels: rels } = await collectIngest([memorySource('scifact.zip', zip, { chunkSize: 7 })]);
    expect(documents.map((d) => d.id)).toEqual(['a', 'b']);
    expect(qs.map((q) => q.id)).toEqual(['q']);
    expect(rels).toEqual([
      { queryId: 'q', docId: 'a', relevance: 1 },
      { queryId: 'q', docId: 'b', relevance: 0 },
    ]);
    expect(summary.files.map((f) => [f.path, f.kind])).toEqual([
      ['scifact/corpus.jsonl', 'corpus'],
      ['scifact/queries.jsonl', 'queries'],
      ['scifact/qrels/test.tsv', 'qrels'],
    ]);
    expect(summary.issueCount).toBe(0);
  });

  it('reads a zip inside a zip, and reports a zip that is not one', async () => {
    const inner = zipSync({ 'docs.jsonl': strToU8(jsonl({ id: 'z1', text: 'zipped twice' })) });
    const outer = zipSync({ 'inner.zip': inner, 'notes.txt': strToU8('plain words') });
    const { documents, summary } = await collectIngest([memorySource('outer.zip', outer, { chunkSize: 13 }), memorySource('bad.zip', 'not a zip at all')]);
    expect(documents.map((d) => d.id)).toEqual(['z1', 'notes.txt']);
    expect(summary.issues).toEqual([{ file: 'bad.zip', reason: 'no files found in the zip archive (is it a zip file?)' }]);
  });
});

describe('ingest: unreadable files', () => {
  it('turns a read failure into an issue for that file and reads the others', async () => {
    const bytes = zipSync({ 'a.txt': strToU8('abc'), 'b.txt': strToU8('fine') }, { level: 0 });
    bytes[8] = 14; // first entry's compression method: LZMA, which is not supported
    const { documents, summary } = await collectIngest([memorySource('m.zip', bytes)]);
    expect(documents.map((d) => d.id)).toEqual(['b.txt']);
    expect(summary.issues).toEqual([{ file: 'a.txt', reason: 'could not read the file: unsupported zip compression method 14 for a.txt' }]);
  });
});

describe('ingest: document files', () => {
  it('maps JSONL fields with a chosen mapping (dotted paths) and keeps the rest as metadata', async () => {
    const content = jsonl({ key: 'k1', meta: { title: 'T1', year: 1999 }, body: 'one' }, { key: 'k2', body: 'two' }, { key: 'k3', meta: { title: 'T3' } });
    const { documents, summary } = await collectIngest([memorySource('docs.jsonl', content, { chunkSize: 5 })], {
      mapping: { id: 'key', title: 'meta.title', text: 'body' },
    });
    expect(documents).toEqual([
      { id: 'k1', title: 'T1', text: 'one', metadata: { meta: { year: 1999 } } },
      { id: 'k2', title: '', text: 'two' },
    ]);
    expect(summary.issues).toEqual([{ file: 'docs.jsonl', line: 3, field: 'body', reason: "empty text (field 'body')" }]);
  });

  it('guesses the mapping per file, and reports a file whose fields cannot be guessed', async () => {
    const { documents, summary } = await collectIngest([
      memorySource('pyserini.jsonl', jsonl({ id: 'p1', contents: 'pyserini style' })),
      memorySource('other.jsonl', jsonl({ key: 'x', words: 'nothing to map' }, { key: 'y', words: 'more' })),
    ]);
    expect(documents).toEqual([{ id: 'p1', title: '', text: 'pyserini style' }]);
    expect(summary.issues).toHaveLength(1);
    expect(summary.issues[0].file).toBe('other.jsonl');
    expect(summary.issues[0].reason).toContain('cannot guess the field mapping');
    expect(summary.files[1]).toEqual({ path: 'other.jsonl', kind: 'documents', records: 0, skipped: 0 });
  });

  it('reads CSV and TSV files, with issues on the first line of a multi-line record', async () => {
    const csv = 'doc_id,title,body\n1,One,"first\nbody"\n2,Two\n3,Three,"third ""quoted"" body"\n1,Dup,"again\nand again"\n';
    const tsv = 'id\ttext\tsource\nt1\ttab text\twiki\n';
    const { documents, summary } = await collectIngest([
      memorySource('a.csv', csv, { chunkSize: 7 }),
      memorySource('b.tsv', tsv, { chunkSize: 3 }),
    ]);
    expect(documents).toEqual([
      { id: '1', title: 'One', text: 'first\nbody' },
      { id: '3', title: 'Three', text: 'third "quoted" body' },
      { id: 't1', title: '', text: 'tab text', metadata: { source: 'wiki' } },
    ]);
    expect(summary.issues).toEqual([
      { file: 'a.csv', line: 4, reason: 'the row has 2 fields but the header has 3' },
      { file: 'a.csv', line: 6, field: 'doc_id', reason: "duplicate document id '1' (first seen on line 2; the first is kept)" },
    ]);
  });

  it('turns text and Markdown files into whole documents or passages', async () => {
    const md = 'Intro line\n\n# The Title\nw1 w2 w3 w4 w5 w6 w7';
    const sources = () => [
      memorySource('notes.md', md, { chunkSize: 4, path: 'docs/notes.md' }),
      memorySource('plain.txt', '# not a heading in a .txt\r\nsecond line\r\n'),
      memorySource('empty.txt', ' \n\n'),
    ];
    const whole = await collectIngest(sources());
    expect(whole.documents).toEqual([
      { id: 'docs/notes.md', title: 'The Title', text: md },
      { id: 'plain.txt', title: 'plain', text: '# not a heading in a .txt\nsecond line' },
    ]);
    expect(whole.summary.issues).toEqual([{ file: 'empty.txt', reason: 'empty text: the file has no words' }]);

    // 12 words, size 4, overlap 1 → windows start at words 0, 3, 6, 9.
    const split = await collectIngest(sources(), { passages: { mode: 'split', size: 4, overlap: 1 } });
    expect(split.documents).toEqual([
      { id: 'docs/notes.md#1', title: 'The Title', text: 'Intro line # The' },
      { id: 'docs/notes.md#2', title: 'The Title', text: 'The Title w1 w2' },
      { id: 'docs/notes.md#3', title: 'The Title', text: 'w2 w3 w4 w5' },
      { id: 'docs/notes.md#4', title: 'The Title', text: 'w5 w6 w7' },
      { id: 'plain.txt#1', title: 'plain', text: '# not a heading' },
      { id: 'plain.txt#2', title: 'plain', text: 'heading in a .txt' },
      { id: 'plain.txt#3', title: 'plain', text: '.txt second line' },
    ]);
  });

  it('rejects invalid options with a clear message', async () => {
    await expect(collectIngest([], { passages: { mode: 'split', size: 3, overlap: 3 } })).rejects.toThrow(
      'passages.overlap (3) must be smaller than passages.size (3)',
    );
    await expect(collectIngest([], { batchSize: 0 })).rejects.toThrow('batchSize');
  });

  it('reports files of unknown type and keeps the others', async () => {
    const { documents, summary } = await collectIngest([memorySource('data.json', '[]'), memorySource('ok.txt', 'fine')]);
    expect(documents.map((d) => d.id)).toEqual(['ok.txt']);
    expect(summary.issues).toEqual([{ file: 'data.json', reason: "unsupported file type '.json' (expected .jsonl, .csv, .tsv, .txt, .md or .zip)" }]);
    expect(summary.files[0]).toEqual({ path: 'data.json', kind: 'skipped', records: 0, skipped: 0 });
  });

  it('stores 1,000 issues but counts them all', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => (i % 2 === 0 ? 'not json' : JSON.stringify({ id: `d${i}`, text: '' })));
    lines.push(JSON.stringify({ id: 'good', text: 'kept' }));
    const { summary, documents } = await collectIngest([memorySource('bad.jsonl', jsonl(...lines))], { mapping: { id: 'id', text: 'text' } });
    expect(documents.map((d) => d.id)).toEqual(['good']);
    expect(summary.issueCount).toBe(1500);
    expect(summary.issues).toHaveLength(1000);
    expect(summary.issues[999].line).toBe(1000);
    expect(summary.files[0]).toMatchObject({ records: 1, skipped: 1500 });
  });
});

describe('ingest: streaming, batches, cancellation', () => {
  /** ~`megabytes` MB of JSONL, generated as it is read. */
  function bigJsonl(megabytes: number, chunkLines = 500) {
    const lineBytes = 100;
    const total = Math.round((megabytes * 1024 * 1024) / lineBytes);
    const line = (i: number) => {
      const head = `{"_id":"d${i}","text":"`;
      return head + 'x'.repeat(lineBytes - head.length - 3) + '"}\n';
    };
    const source = generatedSource('big.jsonl', function* () {
      for (let i = 0; i < total; i += chunkLines) {
        let chunk = '';
        for (let j = i; j < Math.min(total, i + chunkLines); j++) chunk += line(j);
        yield chunk;
      }
    }, { size: total * lineBytes });
    return { source, total };
  }

  it('ingests ~20 MB of JSONL through many bounded batches while reading lazily', async () => {
    const { source, total } = bigJsonl(20);
    let batches = 0;
    let largest = 0;
    let documents = 0;
    let pulledAtFirstBatch = -1;
    let progressCalls = 0;
    const summary = await ingest([source], {}, {
      onBatch(batch: IngestBatch) {
        if (pulledAtFirstBatch < 0) pulledAtFirstBatch = source.stats.bytesPulled;
        batches++;
        largest = Math.max(largest, batch.documents.length);
        documents += batch.documents.length;
      },
      onProgress: () => void progressCalls++,
    });
    expect(summary.documents).toBe(total);
    expect(documents).toBe(total);
    expect(largest).toBe(500);
    expect(batches).toBe(Math.ceil(total / 500));
    // Storage saw the first batch after about one chunk of input, not after the whole file.
    expect(pulledAtFirstBatch).toBeGreaterThan(0);
    expect(pulledAtFirstBatch).toBeLessThan(1024 * 1024);
    expect(progressCalls).toBeLessThanOrEqual(batches + 2);
    expect(summary.issueCount).toBe(0);
  });

  it('stops reading and rejects with an AbortError when cancelled mid-file', async () => {
    const { source } = bigJsonl(20);
    const controller = new AbortController();
    let batches = 0;
    const run = ingest(
      [source],
      { batchSize: 100 },
      {
        onBatch() {
          if (++batches === 3) controller.abort();
        },
      },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(batches).toBe(3);
    expect(source.stats.cancelled).toBe(true);
    expect(source.stats.bytesPulled).toBeLessThan(1024 * 1024);
  });

  it('cancels a read that is waiting for data', async () => {
    let cancelled = false;
    const stalled = {
      name: 'slow.jsonl',
      size: 100,
      stream: () =>
        new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(strToU8('{"_id":"a","text":"t"}\n')),
          pull: () => new Promise<void>(() => undefined),
          cancel: () => void (cancelled = true),
        }),
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(ingest([stalled], {}, { onBatch: () => undefined }, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const source = memorySource('a.jsonl', jsonl({ _id: 'a', text: 't' }));
    await expect(ingest([source], {}, { onBatch: () => undefined }, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(source.stats.streams).toBe(0);
  });

  it('passes on an error thrown by onBatch instead of turning it into an issue', async () => {
    const failure = new Error('quota exceeded');
    const source = memorySource('a.jsonl', jsonl({ _id: 'a', text: 't' }, { _id: 'b', text: 't' }));
    await expect(ingest([source], { batchSize: 1 }, { onBatch: () => Promise.reject(failure) })).rejects.toBe(failure);
  });

  it('reports progress with byte counts over all files', async () => {
    const a = memorySource('a.jsonl', jsonl({ _id: 'a', text: 'first' }));
    const b = memorySource('b.txt', 'second file');
    const { progress } = await collectIngest([a, b]);
    const last = progress.at(-1)!;
    expect(last).toEqual({ file: 'b.txt', bytesDone: a.size + b.size, bytesTotal: a.size + b.size, documents: 2, queries: 0, qrels: 0, issueCount: 0 });
    expect(progress.some((p) => p.file === 'a.jsonl' && p.bytesDone === a.size)).toBe(true);
  });
});
