// Fuzz targets for every parser that reads user files: JSONL, CSV/TSV, TREC run, qrels, snapshot, recipe.
// Each target builds files from valid lines and mutated ones with a fixed seed and a fixed number of cases (no
// clock), and checks: no crash (only the parser's own error with words), every rejected line named with its file
// and line, every valid line kept, and no line lost without a word (kept + rejected = lines read).
import { describe, expect, it } from 'vitest';
import { collectIngest } from './corpus/fixtures/collect.ts';
import { memorySource } from './corpus/fixtures/memory-source.ts';
import { readSnapshot, SnapshotError, SnapshotWriter } from './corpus/index.ts';
import { mulberry32, parseQrels, parseTrecRun, buildQrelsMap } from './eval/index.ts';
import { formatRecipe, parseRecipe, RecipeError, recipeOfRun, type RecipeCorpus, buildRunRecord } from './runs/index.ts';

const SEED = 0x5eed_2024;
const CASES = 80;
const MAX_LINES = 40;

/** Uniform numbers in [0, 1) from the seed (mulberry32 gives 32-bit integers). */
type Rng = () => number;
const seeded = (seed: number): Rng => {
  const next = mulberry32(seed);
  return () => next() / 2 ** 32;
};
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T,>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)]!;

/** Fragments a careless or hostile file holds (no line breaks: those would renumber the lines). */
const JUNK = ['', ' ', '  ', '\t', '\u00a0', '\u0000', '\uFEFF', '\\', '"', '{', '}', '[', ']', ',', ':', '1e308', '-1', 'NaN', 'Infinity', '__proto__', 'constructor', 'é', '😀', '\uD800', 'null', 'true', '0x10', 'Q0', '1e-400', '9'.repeat(400), '\u202e', '\u0007'];

/** A line changed by one to three random edits: insert junk, delete a span, repeat a span. */
function mutate(rng: Rng, line: string, junk: readonly string[] = JUNK): string {
  let out = line;
  for (let n = 1 + int(rng, 3); n > 0; n--) {
    const at = int(rng, out.length + 1);
    const op = int(rng, 3);
    if (op === 0) out = out.slice(0, at) + pick(rng, junk) + out.slice(at);
    else if (op === 1) out = out.slice(0, at) + out.slice(at + 1 + int(rng, 8));
    else out = out.slice(0, at) + out.slice(at, at + int(rng, 6)) + out.slice(at);
  }
  return out;
}

/** Lines as UTF-8 bytes; a few mutated lines get a byte that is not valid UTF-8 (listed in `invalid`). */
function encode(rng: Rng, lines: string[], mutated: Set<number>): { bytes: Uint8Array; invalid: Set<number> } {
  const parts: number[] = [];
  const invalid = new Set<number>();
  lines.forEach((line, i) => {
    const bytes = [...new TextEncoder().encode(line)];
    if (mutated.has(i) && rng() < 0.15) {
      bytes.splice(int(rng, bytes.length + 1), 0, pick(rng, [0xff, 0xc3, 0x80]));
      invalid.add(i);
    }
    parts.push(...bytes, 10);
  });
  return { bytes: Uint8Array.from(parts), invalid };
}

/** A file of valid and mutated lines; `valid(i)` builds line i; the first line is always valid (no header guess). */
function generate(rng: Rng, valid: (i: number) => string, junk?: readonly string[]) {
  const count = 1 + int(rng, MAX_LINES);
  const lines: string[] = [];
  const mutated = new Set<number>();
  for (let i = 0; i < count; i++) {
    if (i > 0 && rng() < 0.4) {
      lines.push(mutate(rng, valid(i), junk));
      mutated.add(i);
    } else lines.push(valid(i));
  }
  const { bytes, invalid } = encode(rng, lines, mutated);
  /** How many lines a reader sees, given what it counts as blank: lines holding invalid UTF-8 are never blank. */
  const read = (blank: (line: string) => boolean) => lines.filter((l, i) => invalid.has(i) || !blank(l)).length;
  return { lines, mutated, bytes, read };
}

/** Issue reasons that report a change to a line that was kept. */
const KEPT = /the record kept|is used$/;

describe('fuzz: corpus files through the loader', () => {
  for (const format of ['jsonl', 'csv', 'tsv'] as const) {
    it(`${format}: no crash, every rejected line named with file and line, every valid line kept`, async () => {
      const rng = seeded(SEED + format.length);
      // CSV quotes may join lines into one record by design; quoting is covered by the CSV unit tests.
      const junk = format === 'jsonl' ? JUNK : JUNK.filter((j) => j !== '"');
      const sep = format === 'tsv' ? '\t' : ',';
      for (let c = 0; c < CASES; c++) {
        const valid =
          format === 'jsonl'
            ? (i: number) => JSON.stringify({ _id: `ok${i}`, title: `title ${i}`, text: `text number ${i}` })
            : (i: number) => [`ok${i}`, `title ${i}`, `text number ${i}`].join(sep);
        const { lines, mutated, bytes, read: readLines } = generate(rng, valid, junk);
        const header = format === 'jsonl' ? [] : [['id', 'title', 'text'].join(sep)];
        const path = format === 'jsonl' ? 's/corpus.jsonl' : `docs.${format}`;
        const file = format === 'jsonl' ? bytes : Uint8Array.from([...new TextEncoder().encode(header[0] + '\n'), ...bytes]);
        const offset = header.length;
        const sources = [memorySource(path.split('/').pop()!, file, { path, chunkSize: 1 + int(rng, 64) })];
        const { documents, summary } = await collectIngest(sources);
        const label = `case ${c}: ${JSON.stringify(lines)}`;
        const fileIssue = summary.issues.find((i) => i.line === undefined);
        if (fileIssue) {
          // The whole file refused (it looks binary): said once, for the file, and nothing of it loaded.
          expect(fileIssue.file, label).toBe(path);
          expect(documents, label).toEqual([]);
          continue;
        }
        for (const issue of summary.issues) {
          expect(issue.file, label).toBe(path);
          expect(issue.line, label).toBeGreaterThanOrEqual(1);
          expect(issue.line, label).toBeLessThanOrEqual(lines.length + offset);
        }
        const ids = new Set(documents.map((d) => d.id));
        lines.forEach((_, i) => {
          if (!mutated.has(i)) expect(ids.has(`ok${i}`), `${label}: line ${i + 1 + offset} is valid`).toBe(true);
        });
        const rejectedLines = new Set(summary.issues.filter((i) => !KEPT.test(i.reason)).map((i) => i.line));
        const read = readLines((l) => (format === 'jsonl' ? l.trim() === '' : l === ''));
        expect(documents.length + rejectedLines.size, label).toBe(read);
      }
    });
  }
});

describe('fuzz: evaluation files', () => {
  it('TREC runs: no crash, every skipped line named, every valid line kept', () => {
    const rng = seeded(SEED + 1);
    for (let c = 0; c < CASES * 2; c++) {
      const { lines, mutated, bytes, read: readLines } = generate(rng, (i) => `q${i % 3} Q0 ok${i} ${i + 1} ${(100 - i) / 7} tag`);
      const label = `case ${c}: ${JSON.stringify(lines)}`;
      let result: ReturnType<typeof parseTrecRun>;
      try {
        result = parseTrecRun(bytes);
      } catch (error) {
        expect((error as Error).name, label).toBe('BinaryFileError');
        continue;
      }
      for (const issue of result.issues) expect(issue.line, label).toBeGreaterThanOrEqual(1);
      const kept = [...result.run.values()].flatMap((docs) => docs.map((d) => d.id));
      lines.forEach((_, i) => {
        if (!mutated.has(i)) expect(result.run.get(`q${i % 3}`)?.some((d) => d.id === `ok${i}`), `${label}: line ${i + 1}`).toBe(true);
      });
      for (const docs of result.run.values()) for (const d of docs) expect(Number.isFinite(d.score), label).toBe(true);
      const skipped = new Set(result.issues.map((i) => i.line));
      const read = readLines((l) => l.replace(/^\uFEFF/, '').trim() === '');
      expect(kept.length + skipped.size, label).toBe(read);
    }
  });

  it('qrels: no crash, every skipped line named, every valid line kept, every grade finite and in range', () => {
    const rng = seeded(SEED + 2);
    for (let c = 0; c < CASES * 2; c++) {
      const { lines, mutated, bytes, read: readLines } = generate(rng, (i) => (i % 2 ? `q${i} 0 ok${i} ${i % 4}` : `q${i}\tok${i}\t${i % 3}`));
      const label = `case ${c}: ${JSON.stringify(lines)}`;
      let result: ReturnType<typeof parseQrels>;
      try {
        result = parseQrels(bytes);
      } catch (error) {
        expect((error as Error).name, label).toBe('BinaryFileError');
        continue;
      }
      for (const issue of result.issues) expect(issue.line, label).toBeGreaterThanOrEqual(1);
      lines.forEach((_, i) => {
        if (!mutated.has(i)) expect(result.qrels.some((q) => q.queryId === `q${i}` && q.docId === `ok${i}`), `${label}: line ${i + 1}`).toBe(true);
      });
      for (const q of result.qrels) expect(Math.abs(q.relevance), label).toBeLessThanOrEqual(1000);
      const skipped = new Set(result.issues.filter((i) => !KEPT.test(i.reason)).map((i) => i.line));
      const read = readLines((l) => l.replace(/^\uFEFF/, '').trim() === '');
      expect(result.qrels.length + skipped.size, `${label} → ${JSON.stringify(result)}`).toBe(read);
    }
  });
});

describe('fuzz: whole-file formats', () => {
  it('snapshots: a damaged file is read whole or refused with a SnapshotError, never another failure', async () => {
    const writer = new SnapshotWriter();
    const chunks = [
      ...writer.start(),
      ...writer.begin('documents'),
      ...writer.item({ id: 'd1', title: 'A', text: 'alpha', metadata: { __proto__: 1 } }),
      ...writer.item({ id: 'd2', vector: Float32Array.from([1, 2, 3]) }),
      ...writer.end(),
      ...writer.finish(),
    ];
    const whole = Uint8Array.from(chunks.flatMap((c) => [...c]));
    const read = async (bytes: Uint8Array) => {
      const items = [];
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 97) controller.enqueue(bytes.slice(at, at + 97));
          controller.close();
        },
      });
      for await (const item of readSnapshot(stream)) items.push(item);
      return items;
    };
    expect(await read(whole)).toHaveLength(2);
    const rng = seeded(SEED + 3);
    let refused = 0;
    for (let c = 0; c < CASES * 2; c++) {
      const bytes = Uint8Array.from(whole);
      const op = int(rng, 3);
      let damaged: Uint8Array;
      if (op === 0) {
        for (let n = 1 + int(rng, 4); n > 0; n--) bytes[int(rng, bytes.length)] = int(rng, 256);
        damaged = bytes;
      } else if (op === 1) damaged = bytes.slice(0, int(rng, bytes.length));
      else {
        const at = int(rng, bytes.length);
        damaged = Uint8Array.from([...bytes.slice(0, at), ...Array.from({ length: 1 + int(rng, 8) }, () => int(rng, 256)), ...bytes.slice(at)]);
      }
      try {
        await read(damaged);
      } catch (error) {
        expect(error, `case ${c}`).toBeInstanceOf(SnapshotError);
        expect((error as Error).message.length, `case ${c}`).toBeGreaterThan(20);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(CASES);
  });

  it('recipes: a damaged file is read or refused with a RecipeError, never another failure', () => {
    const corpus: RecipeCorpus = {
      name: 'Sample',
      documentCount: 2,
      checksum: `sha256:${'1'.repeat(64)}`,
      analyzer: { lowercase: true, stopWords: 'english', stemming: 'porter' },
      queryCount: 1,
      qrelCount: 1,
      queriesChecksum: `sha256:${'2'.repeat(64)}`,
      qrelsChecksum: `sha256:${'0'.repeat(64)}`,
    };
    const record = buildRunRecord({
      name: 'bm25',
      corpusId: 'c',
      corpusName: 'Sample',
      pipeline: { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } },
      run: new Map([['q1', [{ id: 'd1', score: 0.9 }]]]),
      k: 10,
      qrels: buildQrelsMap([{ queryId: 'q1', docId: 'd1', relevance: 1 }]),
      measures: ['nDCG@10'],
    });
    const text = formatRecipe(recipeOfRun(record, corpus, []));
    const proto = text.replace('"metrics": {', '"metrics": {\n    "__proto__": 0.5,');
    expect(Object.keys(parseRecipe(proto).metrics!)).toContain('__proto__');
    const rng = seeded(SEED + 4);
    for (let c = 0; c < CASES * 3; c++) {
      const damaged = mutate(rng, text, [...JUNK, '\n', '"format"', '"version": 2', '{}', '[]']);
      try {
        parseRecipe(damaged);
      } catch (error) {
        expect(error, `case ${c}: ${damaged}`).toBeInstanceOf(RecipeError);
      }
    }
  });
});
