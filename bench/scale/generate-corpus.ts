// Writes an MS MARCO-like BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) of any size, reproducibly:
// passage i is the same in every size, so a smaller corpus is a prefix of a larger one.
//   npx tsx bench/scale/generate-corpus.ts --docs 1000000 [--queries 500] [--out .tmp/scale/msmarco-like-1000000]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AliasTable, readWordModel } from './word-model.ts';

/** Mean passage length of MS MARCO (words); observed lengths are rescaled to it. */
const MEAN_WORDS = 60;
/**
 * Share of words that are rare names and numbers beyond the source vocabulary, so that the vocabulary keeps
 * growing with the corpus (Heaps' law) as a real collection's does, instead of stopping at the sources' ~60k.
 */
const RARE_SHARE = 0.03;
const RARE_RANGE = 4_000_000;

/** A small, fast seeded PRNG (splitmix32 over a per-stream seed); returns floats in [0, 1). */
function stream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

function seedOf(kind: number, i: number): number {
  return Math.imul(i + 1, 0x27d4eb2d) ^ Math.imul(kind, 0x165667b1);
}

export interface GeneratedCorpus {
  dir: string;
  docs: number;
  queries: number;
}

export function createPassageSource() {
  const model = readWordModel();
  const words = new AliasTable(model.counts);
  let observedMean = 0;
  for (const l of model.lengths) observedMean += l / model.lengths.length;
  const scale = MEAN_WORDS / observedMean;
  const rareWord = (u: number) => `${(Math.floor(RARE_RANGE ** u) - 1).toString(36)}x`;
  const word = (random: () => number) =>
    random() < RARE_SHARE ? rareWord(random()) : model.words[words.draw(random(), random())]!;
  return {
    passage(i: number): string {
      const random = stream(seedOf(1, i));
      const observed = model.lengths[Math.floor(random() * model.lengths.length)]!;
      const length = Math.max(5, Math.min(250, Math.round(observed * scale)));
      return Array.from({ length }, () => word(random)).join(' ');
    },
    /** A query of 1–12 words: some words of its relevant passage, some common words. */
    query(q: number, docs: number): { text: string; doc: number } {
      const random = stream(seedOf(2, q));
      const doc = Math.floor(random() * docs);
      const own = this.passage(doc).split(' ');
      const length = 1 + Math.floor(random() * 12);
      const text = Array.from({ length }, () => (random() < 0.7 ? own[Math.floor(random() * own.length)]! : word(random))).join(' ');
      return { text, doc };
    },
  };
}

/**
 * Whole passages already in a corpus.jsonl left by an interrupted run: the file is cut after its last complete
 * line, and generation continues from there (passage i is the same whatever run writes it).
 */
function resumePoint(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r+');
  try {
    const chunk = Buffer.alloc(1 << 16);
    let lines = 0;
    let lastNewline = -1;
    for (let at = 0; at < size; at += chunk.length) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, at);
      for (let i = 0; i < read; i++) {
        if (chunk[i] === 10) {
          lines++;
          lastNewline = at + i;
        }
      }
    }
    fs.ftruncateSync(fd, lastNewline + 1);
    return lines;
  } finally {
    fs.closeSync(fd);
  }
}

export async function generateCorpus(docs: number, queries: number, dir: string): Promise<GeneratedCorpus> {
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === `${docs} ${queries}`) return { dir, docs, queries };
  fs.mkdirSync(path.join(dir, 'qrels'), { recursive: true });
  const source = createPassageSource();
  const corpusFile = path.join(dir, 'corpus.jsonl');
  const kept = resumePoint(corpusFile);
  const from = kept <= docs ? kept : 0;
  if (from > 0) console.log(`continuing ${corpusFile} after ${from.toLocaleString('en')} passages`);
  const out = fs.createWriteStream(corpusFile, { flags: from > 0 ? 'a' : 'w' });
  let buffer = '';
  for (let i = from; i < docs; i++) {
    buffer += `{"_id":"p${i}","title":"","text":${JSON.stringify(source.passage(i))}}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffer = '';
    }
  }
  out.write(buffer);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  const queryLines: string[] = [];
  const qrelLines = ['query-id\tcorpus-id\tscore'];
  for (let q = 0; q < queries; q++) {
    const { text, doc } = source.query(q, docs);
    queryLines.push(JSON.stringify({ _id: `q${q}`, text }));
    qrelLines.push(`q${q}\tp${doc}\t1`);
  }
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), queryLines.join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), qrelLines.join('\n') + '\n');
  fs.writeFileSync(done, `${docs} ${queries}`);
  return { dir, docs, queries };
}

export const SCALE_DIR = path.resolve(import.meta.dirname, '../../.tmp/scale');

export function corpusDir(docs: number): string {
  return path.join(SCALE_DIR, `msmarco-like-${docs}`);
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { docs: { type: 'string', default: '10000' }, queries: { type: 'string', default: '500' }, out: { type: 'string' } } });
  const docs = Number(values.docs);
  if (!Number.isInteger(docs) || docs < 1) throw new Error(`--docs must be a positive integer, got ${values.docs}`);
  const start = performance.now();
  const result = await generateCorpus(docs, Number(values.queries), values.out ?? corpusDir(docs));
  console.log(`${result.docs} passages, ${result.queries} queries in ${result.dir} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
}
