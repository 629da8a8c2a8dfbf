// One dense scaling point in a fresh Node process (so that resident memory is this size's own), printed as one
// JSON line:   npx tsx bench/dense-node-size.ts <rows> <memory|file> [--queries N] [--dir .tmp/dense]
// The clustered anisotropic 384-d vectors of bench/dense-compact.ts (same seed, same chunk order, so the same
// vectors and queries), held the two ways a Node host can hold them:
//   memory: float32 rows in RAM (a VectorMatrix) and their compact form made from them;
//   file:   the float32 rows written to a FileVectorSpool as they are drawn, then the compact form loaded from the
//           file in one sequential pass; only int8 codes, sign bits and scales stay in RAM, and rescoring reads its
//           k × defaultRescoreFactor(rows) candidates back with positioned reads.
// Exact float32 latency is measured only in memory; recall@10 is against exact top-10, in file mode computed by one
// streaming pass over the file for all queries at once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CompactVectors,
  defaultChunkRows,
  defaultRescoreFactor,
  loadSpooledCompactVectors,
  mergeTopK,
  searchCompact,
  searchDense,
  VectorMatrix,
  type DenseHit,
  type EmbeddingModelInfo,
  type QueryEmbedding,
} from '../src/core/index.ts';
import { FileVectorSpool } from '../src/cli/file-vector-spool.ts';
import { seededRandom } from '../src/test-support/random-vectors.ts';
import { ClusteredVectors } from './synthetic-vectors.ts';

const DIMS = 384;
const K = 10;
const args = process.argv.slice(2);
const rows = Number(args[0]);
const hold = args[1];
if (!Number.isInteger(rows) || rows <= 0 || (hold !== 'memory' && hold !== 'file')) throw new Error('usage: dense-node-size.ts <rows> <memory|file> [--queries N] [--dir D]');
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const queryCount = Number(flag('--queries') ?? 50);
const spoolDir = path.resolve(flag('--dir') ?? '.tmp/dense');

const mb = (bytes: number) => bytes / 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const peakMb = () => mb(Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024));

const model: EmbeddingModelInfo = { modelId: 'synthetic', dtype: 'fp32', pooling: 'mean', dimensions: DIMS, prefixes: { query: '', passage: '' } };
const clustered = new ClusteredVectors(DIMS, 2000, 7);
const random = seededRandom(rows);
const chunkRows = defaultChunkRows(DIMS);
const ids = Array.from({ length: rows }, (_, i) => `doc-${i}`);

// Draw chunk by chunk (never one array of all rows), then the queries from the same stream.
let matrix: VectorMatrix | undefined;
let spool: FileVectorSpool | undefined;
const drawStart = performance.now();
if (hold === 'memory') {
  const chunks: Float32Array[] = [];
  for (let start = 0; start < rows; start += chunkRows) chunks.push(clustered.rows(random, Math.min(chunkRows, rows - start)));
  matrix = VectorMatrix.fromChunks({ model, chunkRows }, ids, chunks);
} else {
  fs.mkdirSync(spoolDir, { recursive: true });
  spool = await FileVectorSpool.create({ dimensions: DIMS, dir: spoolDir });
  const scratch = new Float32Array(chunkRows * DIMS);
  for (let start = 0; start < rows; start += chunkRows) {
    const count = Math.min(chunkRows, rows - start);
    await spool.append(clustered.rows(random, count, scratch).subarray(0, count * DIMS));
  }
}
const queries: QueryEmbedding[] = Array.from({ length: queryCount }, () => ({ vector: clustered.rows(random, 1), model }));
const drawMs = performance.now() - drawStart;

const loadStart = performance.now();
const compact = matrix ? CompactVectors.fromMatrix(matrix) : await loadSpooledCompactVectors(spool!, model, ids);
const loadMs = performance.now() - loadStart;
const loadPeakMb = peakMb();

// Exact top-k: from the matrix, or one streaming pass over the file scoring every query per block of rows.
const truthStart = performance.now();
let truth: DenseHit[][];
if (matrix) truth = queries.map((q) => searchDense(matrix!, q, K));
else {
  const PASS = 8192;
  truth = queries.map(() => []);
  for (let first = 0; first < rows; first += PASS) {
    const count = Math.min(PASS, rows - first);
    const block = VectorMatrix.fromChunks({ model, chunkRows: count }, ids.slice(first, first + count), [await spool!.readRange(first, count)]);
    queries.forEach((q, i) => {
      const hits = searchDense(block, q, K).map((h) => ({ ...h, row: h.row + first }));
      truth[i] = mergeTopK([truth[i]!, hits], K);
    });
  }
}
const truthMs = performance.now() - truthStart;

gc();
const idle = process.memoryUsage();

const codeBytes = Math.floor((rows * compact.stride) / 64) * 64;
const bitBytes = Math.floor((rows * compact.bitStride) / 64) * 64;
const runners: Record<string, (q: QueryEmbedding) => unknown> = {
  floor: () => compact.kernels.scanFloor(compact.codesOffset, codeBytes),
  int8Pass: (q) => searchCompact(compact, q, K, { approximate: true }),
  int8: (q) => searchCompact(compact, q, K),
  int8x10: (q) => searchCompact(compact, q, K, { rescoreFactor: 10 }),
  bitFloor: () => compact.kernels.scanFloor(compact.bitsOffset, bitBytes),
  binary: (q) => searchCompact(compact, q, K, { firstPass: 'binary' }),
  ...(matrix ? { exact: (q: QueryEmbedding) => searchDense(matrix!, q, K) } : {}),
};
// Runners take turns query by query (after a warm-up round), so a busy machine slows them alike; one timing per query.
const times: Record<string, number[]> = Object.fromEntries(Object.keys(runners).map((name) => [name, []]));
for (const run of Object.values(runners)) await run(queries[0]!);
for (const q of queries) {
  for (const [name, run] of Object.entries(runners)) {
    const t = performance.now();
    await run(q);
    times[name]!.push(performance.now() - t);
  }
}
const quantile = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]!;
const latency = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, { p50: quantile(list, 0.5), p99: quantile(list, 0.99) }]));

const recallAt = (found: readonly DenseHit[], exact: readonly DenseHit[]) => {
  const set = new Set(exact.map((h) => h.row));
  return found.filter((h) => set.has(h.row)).length / exact.length;
};
let int8Recall = 0;
let binaryRecall = 0;
// Recall of int8 as more candidates are rescored (k × 4 is the default; denser sets need more).
const RESCORE_FACTORS = [10, 25];
const int8RecallByRescore: Record<number, number> = Object.fromEntries(RESCORE_FACTORS.map((f) => [f, 0]));
for (let i = 0; i < queries.length; i++) {
  int8Recall += recallAt(await searchCompact(compact, queries[i]!, K), truth[i]!) / queries.length;
  binaryRecall += recallAt(await searchCompact(compact, queries[i]!, K, { firstPass: 'binary' }), truth[i]!) / queries.length;
  for (const rescoreFactor of RESCORE_FACTORS) int8RecallByRescore[rescoreFactor]! += recallAt(await searchCompact(compact, queries[i]!, K, { rescoreFactor }), truth[i]!) / queries.length;
}

// How much of the float file the page cache held at the end (rescoring reads were served from it or from disk).
let fileCachedMb: number | undefined;
if (spool) {
  try {
    const out = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', spool.path], { encoding: 'utf8' });
    fileCachedMb = mb(Number(out.trim()));
  } catch {
    fileCachedMb = undefined;
  }
}
const fileMb = spool ? mb(spool.size) : undefined;
await spool?.close();
clearInterval(sampler);

console.log(
  JSON.stringify({
    rows,
    hold,
    dims: DIMS,
    queries: queryCount,
    drawMs,
    loadMs,
    truthMs,
    loadPeakMb,
    peakMb: peakMb(),
    idleMb: mb(idle.rss),
    floatMb: mb(rows * DIMS * 4),
    compactMb: mb(compact.byteLength),
    fileMb,
    fileCachedMb,
    kernel: compact.kernels.kind,
    latency,
    int8Recall,
    rescoreFactor: defaultRescoreFactor(rows),
    int8RecallByRescore,
    binaryRecall,
  }),
);
