// Compact dense vectors (int8 with float32 rescoring; sign bits + Hamming first): scan speed against the
// memory-bandwidth floor of the same bytes, recall@10 against exact float32 per query set, memory, and the
// scaling curve in docs/dense-scaling.png. All baselines are measured in this run.
// The scaling curve measures each size in a fresh process (bench/dense-node-size.ts): float32 rows in RAM up to
// DSW_BENCH_DENSE_MEMORY_MAX (default 3M), and float32 rows in a file with only the compact form in RAM at every
// size. Sizes: DSW_BENCH_DENSE_SIZES (also the tab's, default 10k–1M) and DSW_BENCH_DENSE_NODE_SIZES (Node only,
// e.g. 3000000,8800000). Each size's latest figures are kept in docs/dense-scale-results.json with their date and
// load average, so a large size measured alone still plots beside the others. The curve alone, e.g. MS MARCO size:
//   DSW_BENCH_DENSE_SIZES= DSW_BENCH_DENSE_NODE_SIZES=3000000,8800000 flock /tmp/bigmem.lock npx tsx bench/dense-compact.ts
// and `npx tsx bench/dense-compact.ts --plot-only` redraws from the recorded figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  CompactVectors,
  defaultChunkRows,
  documentText,
  loadEmbedder,
  mergeTopK,
  searchCompact,
  searchDense,
  splitRows,
  VectorMatrix,
  type DenseHit,
  type EmbeddingModelInfo,
  type QueryEmbedding,
} from '../src/core/index.ts';
import { ensureBundledTinyModel } from '../src/test-support/tiny-model.ts';
import { figure, heading, sharedDataset } from './harness.ts';
import { figureSvg, PALETTE, type LineSeries } from './charts/line-chart.ts';
import { svgToPng } from './charts/to-png.ts';
import { ClusteredVectors } from './synthetic-vectors.ts';
import { seededRandom, unitRows } from '../src/test-support/random-vectors.ts';

const DIMS = 384;
const K = 10;
const QUERIES = 20;
const SIZES = (process.env.DSW_BENCH_DENSE_SIZES ?? '10000,100000,300000,1000000').split(',').filter(Boolean).map(Number);

function modelOf(dims: number, modelId = 'synthetic'): EmbeddingModelInfo {
  return { modelId, dtype: 'fp32', pooling: 'mean', dimensions: dims, prefixes: { query: '', passage: '' } };
}

function recallAt(found: readonly DenseHit[], exact: readonly DenseHit[]): number {
  const truth = new Set(exact.map((h) => h.row));
  return exact.length === 0 ? 1 : found.filter((h) => truth.has(h.row)).length / exact.length;
}

async function perQuery(queries: readonly QueryEmbedding[], run: (q: QueryEmbedding) => unknown): Promise<number> {
  return (await interleaved(queries, [run]))[0]!;
}

/**
 * Per runner, the median over queries of the best of 3 tries per query; the runners take turns query by query
 * (after one warm-up round), so a busy machine slows them alike and their ratios stay meaningful.
 */
async function interleaved(queries: readonly QueryEmbedding[], runs: ReadonlyArray<(q: QueryEmbedding) => unknown>): Promise<number[]> {
  for (const run of runs) await run(queries[0]!);
  const times = runs.map(() => [] as number[]);
  for (const q of queries) {
    const best = runs.map(() => Infinity);
    for (let attempt = 0; attempt < 3; attempt++) {
      for (let i = 0; i < runs.length; i++) {
        const t = performance.now();
        await runs[i]!(q);
        best[i] = Math.min(best[i]!, performance.now() - t);
      }
    }
    best.forEach((ms, i) => times[i]!.push(ms));
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** A matrix of `rows` vectors drawn chunk by chunk (as the app restores it), and queries from the same draw. */
function syntheticSet(rows: number, draw: (random: () => number, count: number) => Float32Array, seed: number) {
  const random = seededRandom(seed);
  const model = modelOf(DIMS);
  const chunkRows = defaultChunkRows(DIMS);
  const chunks: Float32Array[] = [];
  for (let start = 0; start < rows; start += chunkRows) chunks.push(draw(random, Math.min(chunkRows, rows - start)));
  const ids = Array.from({ length: rows }, (_, i) => `doc-${i}`);
  const matrix = VectorMatrix.fromChunks({ model, chunkRows }, ids, chunks);
  const queries = Array.from({ length: QUERIES }, () => ({ vector: draw(random, 1), model }));
  return { matrix, queries };
}

export async function benchCompactDense(): Promise<void> {
  const clustered = new ClusteredVectors(DIMS, 2000, 7);
  for (const rows of SIZES) await benchSize(rows, (random, count) => clustered.rows(random, count));
  await benchUniform();
  await benchCollections();
  await benchDenseScale([...new Set([...SIZES, ...NODE_SIZES])]);
}

async function benchSize(rows: number, draw: (random: () => number, count: number) => Float32Array): Promise<void> {
  heading(`Compact dense top-${K} over ${rows.toLocaleString('en-US')} × ${DIMS} clustered anisotropic vectors (ms per query: median of ${QUERIES} queries, best of 3 each, floor and searches taking turns)`);
  const { matrix, queries } = syntheticSet(rows, draw, rows);
  const compact = CompactVectors.fromMatrix(matrix);
  const codeBytes = rows * compact.stride;
  const bitBytes = rows * compact.bitStride;
  const truth = queries.map((q) => searchDense(matrix, q, K));
  const exactMs = await perQuery(queries, (q) => searchDense(matrix, q, K));
  const floorBytes = Math.floor(codeBytes / 64) * 64;
  const bitFloorBytes = Math.floor(bitBytes / 64) * 64;
  const [floorMs, passMs, int8Ms, bitFloorMs, binaryMs] = await interleaved(queries, [
    () => compact.kernels.scanFloor(compact.codesOffset, floorBytes),
    (q) => searchCompact(compact, q, K, { approximate: true }),
    (q) => searchCompact(compact, q, K),
    () => compact.kernels.scanFloor(compact.bitsOffset, bitFloorBytes),
    (q) => searchCompact(compact, q, K, { firstPass: 'binary' }),
  ]) as [number, number, number, number, number];
  let int8Recall = 0;
  let binaryRecall = 0;
  for (let i = 0; i < queries.length; i++) {
    int8Recall += recallAt(await searchCompact(compact, queries[i]!, K), truth[i]!) / queries.length;
    binaryRecall += recallAt(await searchCompact(compact, queries[i]!, K, { firstPass: 'binary' }), truth[i]!) / queries.length;
  }

  figure(`memory-bandwidth floor: one pass over the ${mib(codeBytes)} of int8 codes`, `${floorMs.toFixed(2)} ms`, `baseline (${(codeBytes / floorMs / 1e6).toFixed(1)} GB/s)`, null);
  figure(`int8 first pass (${compact.kernels.kind} kernel)`, `${passMs.toFixed(2)} ms`, `≤ 1.5× floor (${(passMs / floorMs).toFixed(2)}×)`, passMs / floorMs <= 1.5);
  figure('int8 + float32 rescoring of 4×k', `${int8Ms.toFixed(2)} ms`, `≤ 1.5× floor (${(int8Ms / floorMs).toFixed(2)}×)`, int8Ms / floorMs <= 1.5);
  figure(`binary (Hamming) + int8 of 40×k + float32 of 4×k, floor ${bitFloorMs.toFixed(2)} ms`, `${binaryMs.toFixed(2)} ms`, `vs int8 ${(binaryMs / int8Ms).toFixed(2)}×`, null);
  figure('exact float32 searchDense (the reference)', `${exactMs.toFixed(2)} ms`, `int8 is ${(exactMs / int8Ms).toFixed(1)}× faster`, null);
  figure('recall@10 of int8 vs exact float32', int8Recall.toFixed(4), '≥ 0.99', int8Recall >= 0.99);
  figure('recall@10 of binary first pass vs exact float32', binaryRecall.toFixed(4), 'reported', null);
  figure('vector memory: float32 rows', mib(matrix.rows.byteLength), 'baseline', null);
  figure('vector memory: compact (int8 + bits + scales)', mib(compact.byteLength), `≤ 0.3× float32 (${(compact.byteLength / matrix.rows.byteLength).toFixed(3)}×)`, compact.byteLength / matrix.rows.byteLength <= 0.3);
  if (rows === 100_000) {
    const js = CompactVectors.fromMatrix(matrix, { kernels: 'js' });
    const jsMs = await perQuery(queries.slice(0, 5), (q) => searchCompact(js, q, K, { approximate: true }));
    const same = (await searchCompact(js, queries[0]!, K)).map((h) => h.row).join() === (await searchCompact(compact, queries[0]!, K)).map((h) => h.row).join();
    figure('int8 first pass, plain-JS fallback kernel', `${jsMs.toFixed(2)} ms`, `same hits as WebAssembly: ${same ? 'yes' : 'NO'}`, same);
  }
  if (rows === Math.max(...SIZES)) {
    const ms = await shardedInt8(compact, queries, 2);
    figure('int8 in 2 worker threads over the same shared memory', `${ms.toFixed(2)} ms`, `vs 1 thread ${(ms / int8Ms).toFixed(2)}× (2 cores, shared)`, null);
  }
}

// Worker threads adopt the compact vectors' shared memory (nothing copied), each scans a row range with its own
// scratch slot; the main thread merges the int8 candidates and rescoring reads the float rows once.
async function shardedInt8(compact: CompactVectors, queries: readonly QueryEmbedding[], threads: number): Promise<number> {
  const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(
    new URL('./compact-scan-worker.ts', import.meta.url).href,
  )}); })`;
  const workers = await Promise.all(
    Array.from({ length: threads }, (_, slot) => {
      const worker = new Worker(bootstrap, { eval: true, workerData: { shared: compact.share(), slot: slot + 1 } });
      return new Promise<Worker>((resolve, reject) => {
        worker.once('error', reject);
        worker.once('message', () => resolve(worker));
      });
    }),
  );
  try {
    const ranges = splitRows(compact.size, threads);
    const candidates = 4 * K;
    const search = async (q: QueryEmbedding) => {
      const lists = await Promise.all(
        workers.map(
          (worker, i) =>
            new Promise<DenseHit[]>((resolve) => {
              worker.once('message', resolve);
              worker.postMessage({ query: q, k: candidates, start: ranges[i]![0], end: ranges[i]![1] });
            }),
        ),
      );
      const rows = mergeTopK(lists, candidates).map((h) => h.row);
      return compact.floatRows(rows.sort((a, b) => a - b));
    };
    return await perQuery(queries, search);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

async function benchUniform(): Promise<void> {
  heading(`Compact dense over 100,000 × ${DIMS} uniform random unit vectors (the hardest case: near-equal scores)`);
  const { matrix, queries } = syntheticSet(100_000, (random, count) => unitRows(random, count, DIMS), 99);
  const compact = CompactVectors.fromMatrix(matrix);
  for (const rescoreFactor of [4, 10]) {
    let recall = 0;
    for (const q of queries) recall += recallAt(await searchCompact(compact, q, K, { rescoreFactor }), searchDense(matrix, q, K)) / queries.length;
    figure(`recall@10 of int8, float32 rescoring of ${rescoreFactor}×k`, recall.toFixed(4), rescoreFactor === 4 ? '≥ 0.99' : 'reported', rescoreFactor === 4 ? recall >= 0.99 : null);
  }
}

interface Collection {
  docs: { id: string; title: string; text: string }[];
  queries: string[];
}

function readCollection(dir: string): Collection {
  const lines = (file: string) =>
    fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { _id: string; title?: string; text: string });
  return {
    docs: lines('corpus.jsonl').map((d) => ({ id: d._id, title: d.title ?? '', text: d.text })),
    queries: lines('queries.jsonl').map((q) => q.text),
  };
}

// Recall@10 of the compact forms per query set, with the tiny model and with any real model in public/models.
async function benchCollections(): Promise<void> {
  const modelsDir = path.resolve(import.meta.dirname, '../public/models');
  ensureBundledTinyModel();
  const real = fs.existsSync(modelsDir)
    ? fs.readdirSync(modelsDir).filter((m) => m !== 'tiny-bert' && fs.existsSync(path.join(modelsDir, m, 'config.json')))
    : [];
  const models = ['tiny-bert', ...real];
  heading(`Compact dense recall@10 vs exact float32 per query set (models: ${models.join(', ')}${real.length ? '' : '; no real model in public/models, tiny-bert only'})`);
  const names = ['adi', 'cranfield', 'npl', 'hotpotqa-500'];
  for (const modelId of models) {
    const embedder = await loadEmbedder({ modelId, localModelPath: `${modelsDir}${path.sep}`, batchSize: 32 });
    try {
      for (const name of names) {
        const dir = sharedDataset(name);
        if (!dir) {
          console.log(`${name}: ../shared/data/${name} not found, skipped`);
          continue;
        }
        const { docs, queries } = readCollection(dir);
        // real models are slow on 2 cores: the two small collections only
        if (modelId !== 'tiny-bert' && docs.length > 2000) continue;
        const model = embedder.info;
        const matrix = new VectorMatrix({ model });
        for (let i = 0; i < docs.length; i += 256) {
          const batch = docs.slice(i, i + 256);
          matrix.addBatch(batch.map((d) => d.id), await embedder.embedTexts(batch.map(documentText), 'passage'));
        }
        const compact = CompactVectors.fromMatrix(matrix);
        let int8 = 0;
        let binary = 0;
        for (const text of queries) {
          const q = await embedder.embedQuery(text);
          const exact = searchDense(matrix, q, K);
          int8 += recallAt(await searchCompact(compact, q, K), exact) / queries.length;
          binary += recallAt(await searchCompact(compact, q, K, { firstPass: 'binary' }), exact) / queries.length;
        }
        const label = `${modelId} (${model.dimensions} d) ${name}: ${docs.length} docs, ${queries.length} queries`;
        figure(`${label}, int8`, int8.toFixed(4), '≥ 0.99', int8 >= 0.99);
        figure(`${label}, binary`, binary.toFixed(4), 'reported', null);
      }
    } finally {
      await embedder.dispose();
    }
  }
}

// --- The scaling curve: every size in a fresh process (bench/dense-node-size.ts), recorded, then plotted. ---

/** One size held one way, as dense-node-size.ts prints it, with when it was measured and the load average. */
interface ScalePoint {
  rows: number;
  hold: 'memory' | 'file';
  queries: number;
  drawMs: number;
  loadMs: number;
  truthMs: number;
  loadPeakMb: number;
  peakMb: number;
  idleMb: number;
  floatMb: number;
  compactMb: number;
  fileMb?: number;
  fileCachedMb?: number;
  kernel: string;
  latency: Record<'floor' | 'int8Pass' | 'int8' | 'bitFloor' | 'binary', { p50: number; p99: number }> & { exact?: { p50: number; p99: number }; int8x10?: { p50: number; p99: number } };
  int8Recall: number;
  /** k × this candidates rescored by the default int8 search (absent in runs before it grew with the set). */
  rescoreFactor?: number;
  /** Recall@10 of int8 with k × factor candidates rescored (factors 10 and 25; measured from 2026-12-01 20:30). */
  int8RecallByRescore?: Record<string, number>;
  binaryRecall: number;
  measuredAt: string;
  /** 1-minute load average before and after the size's run. */
  loadAverage: [number, number];
}

const ROOT = path.resolve(import.meta.dirname, '..');
const SCALE_FILE = path.join(ROOT, 'docs/dense-scale-results.json');
/** The largest size held in the tab (the scaling plot marks it). */
const TAB_MAX = 1_000_000;
const NODE_SIZES = (process.env.DSW_BENCH_DENSE_NODE_SIZES ?? '').split(',').filter(Boolean).map(Number);
/** Largest size also measured with its float32 rows in RAM (3M × 384 is 4.3 GiB of them). */
const MEMORY_MAX = Number(process.env.DSW_BENCH_DENSE_MEMORY_MAX ?? 3_000_000);

function readScalePoints(): ScalePoint[] {
  return fs.existsSync(SCALE_FILE) ? (JSON.parse(fs.readFileSync(SCALE_FILE, 'utf8')) as { runs: ScalePoint[] }).runs : [];
}

function measureScalePoint(rows: number, hold: 'memory' | 'file'): ScalePoint {
  const queries = rows >= 5_000_000 ? 30 : 50;
  const args = ['--expose-gc', '--max-old-space-size=8000', '--import', 'tsx', path.join(ROOT, 'bench/dense-node-size.ts'), String(rows), hold, '--queries', String(queries), '--dir', path.join(ROOT, '.tmp/dense')];
  const before = os.loadavg()[0]!;
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`dense-node-size.ts ${rows} ${hold} failed: ${run.stderr}`);
  const point = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ScalePoint;
  return { ...point, measuredAt: new Date().toISOString(), loadAverage: [before, os.loadavg()[0]!] };
}

/** Measures `sizes` (each in memory up to MEMORY_MAX, and from a float file), records them beside earlier sizes, plots. */
export async function benchDenseScale(sizes: readonly number[]): Promise<void> {
  const points = readScalePoints();
  for (const rows of sizes) {
    for (const hold of rows <= MEMORY_MAX ? (['memory', 'file'] as const) : (['file'] as const)) {
      heading(`Dense scaling point: ${rows.toLocaleString('en-US')} × ${DIMS}, float32 rows ${hold === 'memory' ? 'in RAM' : 'in a file (FileVectorSpool), compact form in RAM'} (fresh process)`);
      const p = measureScalePoint(rows, hold);
      const ms = (l: { p50: number; p99: number }) => `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)} ms`;
      figure('load average (1 min) before / after', `${p.loadAverage[0].toFixed(2)} / ${p.loadAverage[1].toFixed(2)}`, 'reported', null);
      figure(hold === 'memory' ? 'draw vectors into RAM' : 'draw vectors, write the float file', `${(p.drawMs / 1000).toFixed(1)} s`, 'reported', null);
      figure(hold === 'memory' ? 'load: quantise the matrix' : 'load: one pass over the file, quantised', `${(p.loadMs / 1000).toFixed(1)} s`, 'reported', null);
      figure('resident memory idle / peak', `${p.idleMb.toFixed(0)} / ${p.peakMb.toFixed(0)} MiB`, `float32 rows ${p.floatMb.toFixed(0)} MiB, compact ${p.compactMb.toFixed(0)} MiB`, null);
      figure(`floor: one pass over the int8 codes, p50 / p99 of ${p.queries}`, ms(p.latency.floor), 'baseline', null);
      figure(`int8 + float32 rescoring of ${p.rescoreFactor ?? 4}×k (the default at this size)`, ms(p.latency.int8), `p50 ${(p.latency.int8.p50 / p.latency.floor.p50).toFixed(2)}× floor`, null);
      figure('int8 first pass alone', ms(p.latency.int8Pass), `p50 ${(p.latency.int8Pass.p50 / p.latency.floor.p50).toFixed(2)}× floor`, null);
      figure(`binary first pass (+ int8 + float32), bit floor ${p.latency.bitFloor.p50.toFixed(2)} ms`, ms(p.latency.binary), `p50 vs int8 ${(p.latency.binary.p50 / p.latency.int8.p50).toFixed(2)}×`, null);
      if (p.latency.exact) figure('exact float32 searchDense', ms(p.latency.exact), `int8 is ${(p.latency.exact.p50 / p.latency.int8.p50).toFixed(1)}× faster (p50)`, null);
      else figure(`exact top-${K} of all queries by one streaming pass over the file`, `${(p.truthMs / 1000).toFixed(1)} s`, 'ground truth', null);
      figure('recall@10 of int8 vs exact float32', p.int8Recall.toFixed(4), '≥ 0.99', p.int8Recall >= 0.99);
      if (p.latency.int8x10) figure('int8 + float32 rescoring of 10×k', ms(p.latency.int8x10), `p50 ${(p.latency.int8x10.p50 / p.latency.int8.p50).toFixed(2)}× the default`, null);
      for (const [factor, recall] of Object.entries(p.int8RecallByRescore ?? {})) figure(`recall@10 of int8, float32 rescoring of ${factor}×k`, recall.toFixed(4), 'reported', null);
      figure('recall@10 of binary first pass vs exact float32', p.binaryRecall.toFixed(4), 'reported', null);
      if (p.fileMb !== undefined) figure('float file / in the page cache at the end', `${p.fileMb.toFixed(0)} / ${p.fileCachedMb?.toFixed(0) ?? '?'} MiB`, 'reported', null);
      const at = points.findIndex((q) => q.rows === rows && q.hold === hold);
      if (at >= 0) points[at] = p;
      else points.push(p);
      points.sort((a, b) => a.rows - b.rows || a.hold.localeCompare(b.hold));
      fs.writeFileSync(SCALE_FILE, JSON.stringify({ at: new Date().toISOString(), runs: points }, null, 2) + '\n');
    }
  }
  await plot(points);
}

async function plot(points: ScalePoint[]): Promise<void> {
  const file = path.join(ROOT, 'docs/dense-scaling.png');
  const of = (hold: ScalePoint['hold']) => points.filter((p) => p.hold === hold);
  const xTicks = [...new Set(points.map((p) => p.rows))].sort((a, b) => a - b);
  const line = (name: string, color: string, list: ScalePoint[], pick: (p: ScalePoint) => number | undefined, dashed = false): LineSeries => ({
    name,
    color,
    dashed,
    points: list.map((p) => [p.rows, pick(p) ?? null]),
  });
  // A vertical dashed line at the tab's largest size, spanning the panel's data.
  const tabMark = (series: LineSeries[]): LineSeries => {
    const ys = series.flatMap((s) => s.points.map((p) => p[1]).filter((y): y is number => y !== null && y > 0));
    return { name: "1M (the tab's largest)", color: '#999', dashed: true, markers: false, points: [[TAB_MAX, Math.min(...ys)], [TAB_MAX, Math.max(...ys)]] };
  };
  const withMark = (series: LineSeries[]) => [...series, tabMark(series)];
  const latency = [
    line('exact float32 (rows in RAM)', PALETTE[0]!, of('memory'), (p) => p.latency.exact?.p50),
    line('int8 + float32 rescoring, rows in RAM', PALETTE[1]!, of('memory'), (p) => p.latency.int8.p50),
    line('int8 + float32 rescoring, rows in a file', PALETTE[1]!, of('file'), (p) => p.latency.int8.p50, true),
    line('binary + int8 + float32 rescoring, rows in a file', PALETTE[2]!, of('file'), (p) => p.latency.binary.p50, true),
    line('floor: one pass over the int8 bytes', PALETTE[3]!, of('file'), (p) => p.latency.floor.p50),
  ];
  const memory = [
    line('peak resident, float32 rows in RAM', PALETTE[0]!, of('memory'), (p) => p.peakMb),
    line('peak resident, float32 rows in a file', PALETTE[1]!, of('file'), (p) => p.peakMb, true),
    line('float32 rows (bytes)', PALETTE[4]!, of('file'), (p) => p.floatMb),
    line('compact: int8 + bits + scales (bytes)', PALETTE[5]!, of('file'), (p) => p.compactMb),
  ];
  const load = [
    line('quantise float32 rows in RAM', PALETTE[0]!, of('memory'), (p) => p.loadMs / 1000),
    line('one pass over the float file, quantised', PALETTE[1]!, of('file'), (p) => p.loadMs / 1000, true),
  ];
  const recall = [
    line('int8, default rescoring (4×k to 1M, then +1 per 250k rows)', PALETTE[1]!, of('file'), (p) => p.int8Recall),
    line('int8, 10×k rescored', PALETTE[4]!, of('file'), (p) => p.int8RecallByRescore?.['10']),
    line('int8, 25×k rescored', PALETTE[5]!, of('file'), (p) => p.int8RecallByRescore?.['25']),
    line('binary first pass', PALETTE[2]!, of('file'), (p) => p.binaryRecall, true),
  ];
  const panel = { xLog: true, yLog: true, xTicks, width: 470, height: 400, xLabel: 'rows (384 d)', legend: 'inside' as const };
  const loads = points.flatMap((p) => p.loadAverage);
  const svg = figureSvg({
    panels: [
      { ...panel, title: `Dense top-${K} latency (Node, 1 thread)`, yLabel: 'ms per query (p50)', series: withMark(latency) },
      { ...panel, title: 'Dense vector memory', yLabel: 'MiB', series: withMark(memory) },
      { ...panel, title: 'Vector load time', yLabel: 's', series: withMark(load) },
      { ...panel, yLog: false, yMin: 0, yMax: 1, legend: 'right' as const, width: 620, title: `Recall@${K} vs exact float32`, yLabel: `recall@${K}`, yFormat: (v: number) => v.toFixed(2), series: withMark(recall) },
    ],
    caption: `npm run bench (sizes up to 1M, the tab's) and DSW_BENCH_DENSE_NODE_SIZES (Node only), measured ${[...new Set(points.map((p) => p.measuredAt.slice(0, 10)))].join(', ')}, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; clustered anisotropic synthetic vectors; recall@10 of int8 ${Math.min(...points.map((p) => p.int8Recall)).toFixed(3)}–${Math.max(...points.map((p) => p.int8Recall)).toFixed(3)}.`,
  });
  await svgToPng(svg, file);
  console.log(`scaling curve written to ${path.relative(process.cwd(), file)}`);
}

// npx tsx bench/dense-compact.ts [--plot-only]: the scaling curve only (DSW_BENCH_DENSE_SIZES ∪ DSW_BENCH_DENSE_NODE_SIZES).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--plot-only')) await plot(readScalePoints());
  else await benchDenseScale([...new Set([...SIZES, ...NODE_SIZES])]);
}
