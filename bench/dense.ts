// Dense retrieval: exact top-k speed against a tight scan, memory of stored vectors, and embedding throughput of
// the whole indexing path against raw transformers.js extractor calls. All baselines are measured in this run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  CompactVectors,
  defaultChunkRows,
  defaultLengthSortWindow,
  documentText,
  embedCorpus,
  loadEmbedder,
  MemoryCorpusStore,
  MemoryVectorStore,
  searchCompactExact,
  searchDense,
  searchDenseSharded,
  RowArena,
  VectorMatrix,
  type CorpusDocument,
  type DenseHit,
  type EmbeddingModelInfo,
  type QueryEmbedding,
  type RowRangeSearch,
} from '../src/core/index.ts';
import { ensureBundledTinyModel } from '../src/test-support/tiny-model.ts';
import { figure, heading } from './harness.ts';
import { startPeer, venvPython } from '../scripts/python-env.mjs';
import { seededRandom, unitRows } from '../src/test-support/random-vectors.ts';
import { storeCorpus } from '../src/test-support/stored-corpus.ts';

const ROWS = 100_000;
const DIMS = 384;
const QUERIES = 40;
const K = 10;

export async function benchDense(): Promise<void> {
  await benchExactSearch();
  await (await import('./dense-compact.ts')).benchCompactDense();
  await benchEmbeddingThroughput();
}

// The baseline: one contiguous Float32Array, a plain dot-product loop, top-k kept in a small sorted array.
function tightScan(data: Float32Array, rows: number, dims: number, q: Float32Array, k: number): number[] {
  const topScores = new Float64Array(k).fill(-Infinity);
  const topRows = new Int32Array(k).fill(-1);
  for (let r = 0, o = 0; r < rows; r++) {
    let s = 0;
    for (let j = 0; j < dims; j++, o++) s += q[j]! * data[o]!;
    if (s > topScores[k - 1]!) {
      let i = k - 1;
      while (i > 0 && s > topScores[i - 1]!) {
        topScores[i] = topScores[i - 1]!;
        topRows[i] = topRows[i - 1]!;
        i--;
      }
      topScores[i] = s;
      topRows[i] = r;
    }
  }
  return Array.from(topRows);
}

async function medianPerQuery(run: (q: number) => unknown | Promise<unknown>, repeats = 3): Promise<number> {
  for (let q = 0; q < 5; q++) await run(q); // warm-up
  const totals: number[] = [];
  for (let rep = 0; rep < repeats; rep++) {
    const start = performance.now();
    for (let q = 0; q < QUERIES; q++) await run(q);
    totals.push((performance.now() - start) / QUERIES);
  }
  return totals.sort((a, b) => a - b)[Math.floor(totals.length / 2)]!;
}

async function benchExactSearch(): Promise<void> {
  heading(`Exact dense top-${K} over ${ROWS.toLocaleString('en-US')} × ${DIMS} synthetic vectors (ms per query, medians of 3 × ${QUERIES} queries)`);
  const model: EmbeddingModelInfo = { modelId: 'synthetic', dtype: 'fp32', pooling: 'mean', dimensions: DIMS, prefixes: { query: '', passage: '' } };
  const random = seededRandom(42);
  const chunkRows = defaultChunkRows(DIMS);
  // The matrix as the app restores it from storage: full chunks adopted as they are (here over shared memory,
  // so worker threads scan the same bytes).
  const chunks: Float32Array[] = [];
  for (let start = 0; start < ROWS; start += chunkRows) {
    const rows = Math.min(chunkRows, ROWS - start);
    chunks.push(unitRows(random, rows, DIMS, new Float32Array(new SharedArrayBuffer(rows * DIMS * 4))) as Float32Array);
  }
  const ids = Array.from({ length: ROWS }, (_, i) => `doc-${i}`);
  const matrix = VectorMatrix.fromChunks({ model, chunkRows }, ids, chunks);
  const flat = new Float32Array(ROWS * DIMS);
  chunks.forEach((c, i) => flat.set(c, i * chunkRows * DIMS));
  const queries: QueryEmbedding[] = Array.from({ length: QUERIES }, () => ({ vector: unitRows(random, 1, DIMS), model }));

  const baseline = await medianPerQuery((q) => tightScan(flat, ROWS, DIMS, queries[q]!.vector, K));
  const exact = await medianPerQuery((q) => searchDense(matrix, queries[q]!, K));
  const same = queries.every((q) => {
    const a = searchDense(matrix, q, K).map((h) => h.row);
    return a.join() === tightScan(flat, ROWS, DIMS, q.vector, K).join();
  });
  const raw = ROWS * DIMS * 4;
  figure('tight Float32Array scan (baseline)', `${baseline.toFixed(2)} ms`, 'baseline', null);
  figure('searchDense, in the calling thread', `${exact.toFixed(2)} ms`, `≤ 1.2× baseline (${(exact / baseline).toFixed(2)}×)`, exact / baseline <= 1.2);
  figure('same top-10 as the baseline for every query', same ? 'yes' : 'NO', 'yes', same);
  await benchFloat32Kernel(matrix, chunks, queries);
  figure(
    `vector memory (${chunks.length} chunks of ${chunkRows} rows) vs raw ${(raw / 2 ** 20).toFixed(1)} MiB`,
    `${(matrix.rows.byteLength / 2 ** 20).toFixed(1)} MiB`,
    `≤ 1.05× raw (${(matrix.rows.byteLength / raw).toFixed(3)}×)`,
    matrix.rows.byteLength / raw <= 1.05,
  );

  for (const count of [1, 2]) {
    const pool = await startWorkers(count, { model, chunkRows, ids, chunks });
    try {
      const shards: RowRangeSearch[] = pool.map((w) => (query, k, start, end) => w.search(query, k, start, end));
      const ms = await medianPerQuery((q) => searchDenseSharded(ROWS, queries[q]!, K, shards));
      const agrees = (await searchDenseSharded(ROWS, queries[0]!, K, shards)).map((h) => h.row).join() === searchDense(matrix, queries[0]!, K).map((h) => h.row).join();
      figure(
        `searchDense in ${count} worker thread${count > 1 ? 's' : ''} (row ranges + mergeTopK)`,
        `${ms.toFixed(2)} ms`,
        `vs baseline ${(ms / baseline).toFixed(2)}×${agrees ? '' : ' — RESULTS DIFFER'}`,
        agrees ? null : false,
      );
    } finally {
      await Promise.all(pool.map((w) => w.stop()));
    }
  }
  console.log(`(${os.cpus().length} cores, shared with whatever else runs; the 2-worker figure can only beat 1 worker on an idle machine.)`);
}

/** Rounds in which ours and the Python peers take turns (each round: every query once, each engine). */
const PEER_TURNS = 9;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

// The float32 SIMD filter (the default) against the plain JS scan it replaced, in alternating rounds so both see
// the same load; then numpy / faiss / usearch over the same rows when the Python peers are installed.
/** Ours ÷ each peer's time (one thread), for the peers chart; absent where the peer did not run. */
export interface DensePeerRatios {
  numpy?: number;
  faiss?: number;
  usearch?: number;
  /** The int8 form searched certified exact (the same hits and scores as the float32 scan) ÷ faiss. */
  int8ExactVsFaiss?: number;
}

async function benchFloat32Kernel(
  matrix: VectorMatrix, chunks: Float32Array[], queries: QueryEmbedding[], rounds = 5, copied?: VectorMatrix, compact?: CompactVectors,
): Promise<DensePeerRatios> {
  const perQuery = (kernels: 'auto' | 'js', over = matrix) => {
    const start = performance.now();
    for (const q of queries) searchDense(over, q, K, { kernels });
    return (performance.now() - start) / queries.length;
  };
  const int8ExactPerQuery = async () => {
    const start = performance.now();
    for (const q of queries) await searchCompactExact(compact!, q, K);
    return (performance.now() - start) / queries.length;
  };
  perQuery('auto');
  perQuery('js');
  if (copied) perQuery('auto', copied);
  const simd: number[] = [];
  const plain: number[] = [];
  const byCopy: number[] = [];
  for (let round = 0; round < rounds; round++) {
    simd.push(perQuery('auto'));
    plain.push(perQuery('js'));
    if (copied) byCopy.push(perQuery('auto', copied));
  }
  const speedup = median(plain.map((p, i) => p / simd[i]!));
  const identical = queries.every((q) => JSON.stringify(searchDense(matrix, q, K)) === JSON.stringify(searchDense(matrix, q, K, { kernels: 'js' })));
  figure('searchDense, plain JS scan (the path before SIMD)', `${median(plain).toFixed(2)} ms`, 'reference', null);
  if (copied) {
    const gain = median(byCopy.map((c, i) => c / simd[i]!));
    figure('searchDense, float32 SIMD filter, rows copied into the kernel block by block', `${median(byCopy).toFixed(2)} ms`, `${median(plain.map((p, i) => p / byCopy[i]!)).toFixed(2)}× faster than plain JS`, null);
    figure('searchDense, float32 SIMD filter over rows in place (default)', `${median(simd).toFixed(2)} ms`, `${speedup.toFixed(2)}× faster than plain JS, ${gain.toFixed(2)}× faster than by copy (${load()})`, null);
  } else {
    figure('searchDense, float32 SIMD filter (default)', `${median(simd).toFixed(2)} ms`, `${speedup.toFixed(2)}× faster than plain JS (${load()})`, null);
  }
  figure('same hits and scores, to the bit, for every query', identical ? 'yes' : 'NO', 'yes', identical);
  let int8Exact: number | undefined;
  if (compact) {
    // the int8 form certified exact, taking turns with the float32 filter
    const times: number[] = [];
    const ratios: number[] = [];
    let rescored = 0;
    for (let round = 0; round < rounds; round++) {
      const simdMs = perQuery('auto');
      times.push(await int8ExactPerQuery());
      ratios.push(times[round]! / simdMs);
    }
    let same = true;
    for (const q of queries) {
      const result = await searchCompactExact(compact, q, K);
      rescored += result.rescored / queries.length;
      same &&= JSON.stringify(result.hits) === JSON.stringify(searchDense(matrix, q, K));
    }
    int8Exact = median(times);
    figure(
      `int8 form, certified exact (every row its bound leaves in rescored: ${rescored.toFixed(0)} a query)`,
      `${int8Exact.toFixed(2)} ms`,
      `${median(ratios).toFixed(2)}× the float32 filter's time; the same hits and scores: ${same ? 'yes' : 'NO'}`,
      same,
    );
  }

  const root = path.resolve(import.meta.dirname, '..');
  const python = venvPython(root);
  if (!python) {
    console.log('(numpy / faiss / usearch peers skipped: no Python venv in .venv-models/; `npm run models` makes it)');
    return {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-dense-peer-'));
  try {
    const rowsFile = path.join(dir, 'rows.f32');
    const fd = fs.openSync(rowsFile, 'w');
    for (let c = 0; c < chunks.length; c++) fs.writeSync(fd, matrix.rows.chunk(c));
    fs.closeSync(fd);
    const queryFile = path.join(dir, 'queries.f32');
    const flatQueries = new Float32Array(queries.length * DIMS);
    queries.forEach((q, i) => flatQueries.set(q.vector, i * DIMS));
    fs.writeFileSync(queryFile, flatQueries);
    // The peers' process loads the rows, warms up, then runs a round of every engine each time ours has run one:
    // they take turns round by round, so a change of load (or of the memory's speed) falls on all of them alike.
    const oneThread = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };
    const turns = Math.max(rounds, PEER_TURNS);
    const peerProcess = startPeer(root, 'exact_dense.py', [rowsFile, queryFile, String(DIMS), String(K), String(turns), '--turns'], oneThread);
    const ourRounds: number[] = [];
    const int8Rounds: number[] = [];
    const peerRounds: Array<Record<string, number>> = [];
    let out: string;
    try {
      await peerProcess.next(); // ready
      for (let round = 0; round < turns; round++) {
        ourRounds.push(perQuery('auto'));
        if (compact) int8Rounds.push(await int8ExactPerQuery());
        peerProcess.send('round');
        peerRounds.push((JSON.parse(await peerProcess.next()) as { round: Record<string, number> }).round);
      }
      peerProcess.send('end');
      out = await peerProcess.next();
    } catch (err) {
      peerProcess.stop();
      throw err;
    }
    const peer = JSON.parse(out) as {
      numpy_ms: number[];
      numpy_top: number[];
      faiss_ms: number[] | null;
      faiss_top: number[] | null;
      usearch_ms: number[] | null;
      usearch_top: number[] | null;
      usearch_version: string | null;
    };
    const ours = median(ourRounds);
    // ours ÷ a peer: the median of the rounds' ratios (each round's two figures measured back to back)
    const versus = (name: string, mine = ourRounds) => median(mine.map((ms, r) => ms / peerRounds[r]![name]!));
    const turnsNote = `${turns} rounds taking turns, median of per-round ratios, ${load()}`;
    const top = searchDense(matrix, queries[0]!, K).map((h) => h.row).join();
    const differs = (rows: number[] | null) => (rows && rows.join() !== top ? ' — top-10 differs' : '');
    const numpy = median(peer.numpy_ms);
    figure('numpy matmul + argpartition, one thread', `${numpy.toFixed(2)} ms`, `ours (${ours.toFixed(2)} ms) ${versus('numpy').toFixed(2)}× numpy's time (${turnsNote})${differs(peer.numpy_top)}`, null);
    const ratios: DensePeerRatios = { numpy: versus('numpy') };
    if (peer.faiss_ms) {
      const faiss = median(peer.faiss_ms);
      ratios.faiss = versus('faiss');
      figure('faiss IndexFlatIP, one thread', `${faiss.toFixed(2)} ms`, `ours (${ours.toFixed(2)} ms) ${ratios.faiss.toFixed(2)}× faiss's time (${turnsNote})${differs(peer.faiss_top)}`, ratios.faiss <= 1.2);
      if (compact) {
        ratios.int8ExactVsFaiss = versus('faiss', int8Rounds);
        figure('int8 form certified exact vs faiss IndexFlatIP', `${median(int8Rounds).toFixed(2)} ms`, `${ratios.int8ExactVsFaiss.toFixed(2)}× faiss's time (${turnsNote})`, null);
      }
    } else console.log('(faiss peer skipped: faiss is not installed in .venv-models/)');
    if (peer.usearch_ms) {
      const usearch = median(peer.usearch_ms);
      ratios.usearch = versus('usearch');
      figure(`usearch ${peer.usearch_version} exact search (ip, no index), one thread`, `${usearch.toFixed(2)} ms`, `ours (${ours.toFixed(2)} ms) ${ratios.usearch.toFixed(2)}× usearch's time (${turnsNote})${differs(peer.usearch_top)}`, null);
    } else console.log('(usearch peer skipped: usearch is not installed in .venv-models/)');
    return ratios;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- dense-peers`: exact float32 search at 100k and 1M × 384 (fresh random unit rows), the SIMD
 * filter against the plain JS scan and numpy / faiss / usearch, 10 queries (4 at 1M) × 3 rounds: about 4 minutes on two cores.
 */
export async function benchExactDensePeers(sizes = [100_000, 1_000_000]): Promise<Array<{ rows: number } & DensePeerRatios>> {
  const ratios: Array<{ rows: number } & DensePeerRatios> = [];
  const model: EmbeddingModelInfo = { modelId: 'synthetic', dtype: 'fp32', pooling: 'mean', dimensions: DIMS, prefixes: { query: '', passage: '' } };
  const chunkRows = defaultChunkRows(DIMS);
  for (const rows of sizes) {
    heading(`Exact dense top-${K} over ${rows.toLocaleString('en-US')} × ${DIMS}: float32 SIMD filter, plain JS scan, numpy, faiss, usearch (ms per query, one thread)`);
    const random = seededRandom(rows);
    // As loadVectorMatrix restores a stored set: the rows in a RowArena, where the kernel reads them in place. The
    // same bytes as plain chunks give the path before (each block copied into the kernel's memory).
    const arena = RowArena.allocate(DIMS, chunkRows, Math.ceil(rows / chunkRows));
    if (!arena) throw new Error('no WebAssembly SIMD here: the arena cannot be made');
    const chunks: Float32Array[] = [];
    for (let c = 0, start = 0; start < rows; start += chunkRows, c++) {
      const n = Math.min(chunkRows, rows - start);
      chunks.push(unitRows(random, n, DIMS, arena.chunk(c).subarray(0, n * DIMS)) as Float32Array);
    }
    const ids = Array.from({ length: rows }, (_, i) => `doc-${i}`);
    const matrix = VectorMatrix.fromArena({ model }, ids, arena);
    const copied = VectorMatrix.fromChunks({ model, chunkRows }, ids, chunks);
    // fewer queries at 1M: the plain scan takes seconds each
    const queries: QueryEmbedding[] = Array.from({ length: rows >= 1_000_000 ? 4 : 10 }, () => ({ vector: unitRows(random, 1, DIMS), model }));
    const built = performance.now();
    const compact = CompactVectors.fromMatrix(matrix);
    figure('int8 form made from the float32 rows (once per loaded set)', `${((performance.now() - built) / 1000).toFixed(2)} s`, `${mib(compact.byteLength)} beside ${mib(matrix.rows.byteLength)} of float32`, null);
    ratios.push({ rows, ...(await benchFloat32Kernel(matrix, chunks, queries, 3, copied, compact)) });
  }
  return ratios;
}

interface ScanWorker {
  search(query: QueryEmbedding, k: number, start: number, end: number): Promise<DenseHit[]>;
  stop(): Promise<number>;
}

async function startWorkers(count: number, data: { model: EmbeddingModelInfo; chunkRows: number; ids: string[]; chunks: Float32Array[] }): Promise<ScanWorker[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      // Worker threads do not inherit tsx's loader: register it in the thread, then load the TypeScript worker.
      const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(
        new URL('./dense-scan-worker.ts', import.meta.url).href,
      )}); })`;
      const worker = new Worker(bootstrap, { eval: true, workerData: data });
      const pending = new Map<number, (hits: DenseHit[]) => void>();
      let next = 0;
      await new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        worker.on('message', (message: { ready?: boolean; id?: number; hits?: DenseHit[] }) => {
          if (message.ready) resolve();
          else pending.get(message.id!)?.(message.hits!), pending.delete(message.id!);
        });
      });
      return {
        search: (query, k, start, end) =>
          new Promise<DenseHit[]>((resolve) => {
            const id = next++;
            pending.set(id, resolve);
            worker.postMessage({ id, query, k, start, end });
          }),
        stop: () => worker.terminate(),
      };
    }),
  );
}

async function benchEmbeddingThroughput(): Promise<void> {
  heading('Embedding throughput: the whole indexing path vs raw batched extractor() calls, and length-sorted batches vs id order (tiny-bert in Node, onnxruntime-node)');
  const modelDir = ensureBundledTinyModel();
  const localModelPath = `${path.dirname(modelDir)}${path.sep}`;
  const sample = fs
    .readFileSync(path.resolve(import.meta.dirname, '../sample-data/meridian/corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
  const REPEAT = 8;
  const docs: CorpusDocument[] = [];
  for (let r = 0; r < REPEAT; r++) for (const d of sample) docs.push({ id: `${d._id}-${r}`, title: d.title, text: d.text });
  docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const texts = docs.map(documentText);
  const BATCH = 32;

  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.localModelPath = localModelPath;
  const extractor = await pipeline('feature-extraction', 'tiny-bert', { dtype: 'fp32' });
  const embedder = await loadEmbedder({ modelId: 'tiny-bert', localModelPath, batchSize: BATCH });

  const corpora = new MemoryCorpusStore();
  await storeCorpus(corpora, 'bench', docs);

  const raw = async () => {
    for (let i = 0; i < texts.length; i += BATCH) await extractor(texts.slice(i, i + BATCH), { pooling: 'mean', normalize: true });
  };
  const indexing = (lengthSortWindow?: number) => async () => {
    await embedCorpus(embedder, corpora, new MemoryVectorStore(), { corpusId: 'bench', source: { location: 'path', modelId: 'tiny-bert' }, device: 'cpu', lengthSortWindow });
  };
  const runs = { raw, idOrder: indexing(1), sorted: indexing() };
  for (const run of Object.values(runs)) await run();
  const times = { raw: [] as number[], idOrder: [] as number[], sorted: [] as number[] };
  // Interleaved runs, best of 7 each: on a shared machine the minimum is the least disturbed measurement.
  for (let i = 0; i < 7; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const t = performance.now();
      await run();
      times[name as keyof typeof times].push(performance.now() - t);
    }
  }
  const rate = (name: keyof typeof times) => (docs.length * 1000) / Math.min(...times[name]);
  const [rawRate, pathRate, sortedRate] = [rate('raw'), rate('idOrder'), rate('sorted')];
  figure(`raw extractor(), batches of ${BATCH} in id order (${docs.length} docs)`, `${rawRate.toFixed(0)} docs/s`, 'baseline', null);
  figure('embedCorpus in id order (lengthSortWindow 1): pages, batches, chunks, store', `${pathRate.toFixed(0)} docs/s`, `≥ 0.9× baseline (${(pathRate / rawRate).toFixed(2)}×)`, pathRate / rawRate >= 0.9);
  figure(`embedCorpus, length-sorted windows of ${defaultLengthSortWindow(BATCH)} (the default)`, `${sortedRate.toFixed(0)} docs/s`, `≥ id order (${(sortedRate / pathRate).toFixed(2)}×)`, sortedRate >= pathRate * 0.95);
  await extractor.dispose();
  await embedder.dispose();
}
