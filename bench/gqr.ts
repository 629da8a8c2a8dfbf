// GQR: time per query at the defaults (40-document pool, 384-d vectors), and an 11-point α sweep over Cranfield
// with the children run once per query and the re-ranking split over worker threads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  buildQrelsMap,
  collectSweepRuns,
  DEFAULT_CC_WEIGHTS,
  evaluateSweep,
  expandGrid,
  GqrRetriever,
  gqrRerank,
  mulberry32,
  prepareSweepQueries,
  sweepPreparedQueries,
  type GqrInput,
  type QuerySweepResult,
  type SweepJob,
  type SweepPreparedQuery,
} from '../src/core/index.ts';
import type { CliIo } from '../src/cli/io.ts';
import { loadDataset } from '../src/cli/load-dataset.ts';
import { buildPipelineFromOptions } from '../src/cli/pipeline-options.ts';
import { figure, heading, medianMs, sharedDataset } from './harness.ts';

export async function benchGqr(): Promise<void> {
  await benchGqrPerQuery();
  await benchCranfieldSweep();
}

async function benchGqrPerQuery(): Promise<void> {
  heading('GQR per query at the defaults (25 steps, gd, per-step target): 40-document pool, 384-d vectors');
  const random = mulberry32(42);
  const uniform = () => random() / 2 ** 32 - 0.5;
  const vector = () => Float32Array.from({ length: 384 }, uniform);
  const ids = Array.from({ length: 40 }, (_, i) => `d${i}`);
  const input: GqrInput = {
    primary: ids.slice(0, 20).map((id, i) => ({ id, score: 0.8 - i * 0.01 })),
    complementary: ids.slice(20).map((id, i) => ({ id, score: 25 - i * 0.7 })),
    queryEmbedding: vector(),
    candidateEmbeddings: new Map(ids.map((id) => [id, vector()])),
  };
  const rows = ids.map((id) => input.candidateEmbeddings!.get(id)!);
  const query = input.queryEmbedding!;
  // Baseline: one cosine scoring of the pool (the least one optimisation step costs; a step is a forward and a backward pass).
  let sink = 0;
  const scoreOnce = () => {
    for (const row of rows) {
      let dot = 0;
      for (let j = 0; j < 384; j++) dot += row[j]! * query[j]!;
      sink += dot;
    }
  };
  const baseline = (await medianMs(() => { for (let i = 0; i < 1000; i++) scoreOnce(); }, 7)) / 1000;
  const gqr = (await medianMs(() => { for (let i = 0; i < 100; i++) gqrRerank(input, 10); }, 7)) / 100;
  if (sink === 42) console.log(''); // keeps the baseline loop from being optimised away
  figure('one cosine scoring of the 40 × 384 pool (baseline)', `${(baseline * 1000).toFixed(1)} µs`, 'baseline', null);
  figure('GQR re-rank of one query (single-vector cosine path)', `${gqr.toFixed(3)} ms`, '≤ 2 ms', gqr <= 2);
  figure('GQR ÷ one scoring of the pool', `${(gqr / baseline).toFixed(0)}×`, '', null);
}

async function benchCranfieldSweep(): Promise<void> {
  const dir = sharedDataset('cranfield');
  heading('11-point α sweep over Cranfield (225 queries): dense tiny-bert primary, BM25 complementary, top 10');
  if (!dir) {
    console.log('cranfield: ../shared/data/cranfield not found, skipped');
    return;
  }
  const quiet: CliIo = { out: () => {}, err: () => {}, cwd: process.cwd(), env: {} };
  const dataset = await loadDataset(dir, quiet);
  const { retriever: gqr } = await buildPipelineFromOptions('gqr', {}, dataset, quiet, { model: tinyModelFolder() });
  if (!(gqr instanceof GqrRetriever)) throw new Error('not a GQR retriever');
  const queries = await dataset.store.getQueries(dataset.corpus.id);
  const qrels = buildQrelsMap(await dataset.store.getQrels(dataset.corpus.id));
  const points = expandGrid([{ key: 'mixtureAlpha', values: Array.from({ length: 11 }, (_, i) => i / 10) }]);
  const job: SweepJob = { points, topK: 10, ccWeights: DEFAULT_CC_WEIGHTS };

  await prepareSweepQueries(gqr, queries.slice(0, 10), 10); // warm-up (model session, BM25 caches)
  let started = performance.now();
  const prepared = await prepareSweepQueries(gqr, queries, 10);
  const prepareMs = performance.now() - started;

  started = performance.now();
  const oneThread = sweepPreparedQueries(prepared, job);
  const rerank1Ms = performance.now() - started;

  const workers = await startWorkers(2);
  await rerankInWorkers(workers, prepared.slice(0, 16), job); // warm-up: the threads compile the same code first
  started = performance.now();
  const twoThreads = await rerankInWorkers(workers, prepared, job);
  const rerank2Ms = performance.now() - started;
  // The same re-ranking at a real model's width: every vector mapped to 384 dims by one fixed random projection.
  const wide = prepared.map((p) => projectTo384(p));
  await rerankInWorkers(workers, wide.slice(0, 16), job);
  started = performance.now();
  await rerankInWorkers(workers, wide, job);
  const rerankWideMs = performance.now() - started;
  await Promise.all(workers.map((w) => w.terminate()));

  started = performance.now();
  const runs = collectSweepRuns(queries.map((q) => q.id), twoThreads, job);
  const evaluation = evaluateSweep(runs, qrels, ['nDCG@10']);
  const evaluateMs = performance.now() - started;
  const same = JSON.stringify(collectSweepRuns(queries.map((q) => q.id), oneThread, job).points.map((p) => [...p.run])) ===
    JSON.stringify(runs.points.map((p) => [...p.run]));

  const total = prepareMs + rerank2Ms + evaluateMs;
  figure('children + embeddings, once per query (baseline: one retrieval pass)', `${(prepareMs / 1000).toFixed(2)} s`, 'baseline', null);
  figure('re-rank 11 points + RRF + 11 CC weights, 1 thread', `${(rerank1Ms / 1000).toFixed(2)} s`, '', null);
  figure('the same, 2 worker threads', `${(rerank2Ms / 1000).toFixed(2)} s`, same ? 'same runs as 1 thread' : 'SAME RUNS', same);
  figure('the same at 384 dims (vectors projected), 2 worker threads', `${(rerankWideMs / 1000).toFixed(2)} s`, '', null);
  figure('evaluation of 11 points + 14 baselines', `${(evaluateMs / 1000).toFixed(2)} s`, '', null);
  figure('whole sweep on 2 cores', `${(total / 1000).toFixed(2)} s`, '< 5 s', total < 5000);
  figure('whole sweep ÷ one retrieval pass', `${(total / prepareMs).toFixed(2)}×`, '', null);
  const best = evaluation.bestPoint['nDCG@10']!;
  console.log(
    `nDCG@10: dense ${evaluation.baselines.primary.aggregate['nDCG@10']!.toFixed(4)}, BM25 ${evaluation.baselines.complementary.aggregate['nDCG@10']!.toFixed(4)}, ` +
      `RRF ${evaluation.baselines.rrf.aggregate['nDCG@10']!.toFixed(4)}, best CC ${evaluation.bestCc['nDCG@10']!.value.toFixed(4)}, ` +
      `best GQR ${best.value.toFixed(4)} (${best.at}). tiny-bert is a random test model: only the timings mean anything.`,
  );
}

const projection = (() => {
  const random = mulberry32(7);
  return Float64Array.from({ length: 384 * 32 }, () => random() / 2 ** 32 - 0.5);
})();

function project(vector: ArrayLike<number>): Float32Array {
  const out = new Float32Array(384);
  for (let i = 0; i < 384; i++) {
    let sum = 0;
    for (let j = 0; j < vector.length; j++) sum += projection[i * 32 + j]! * vector[j]!;
    out[i] = sum;
  }
  return out;
}

function projectTo384(prepared: SweepPreparedQuery): SweepPreparedQuery {
  const { input } = prepared;
  return {
    ...prepared,
    input: {
      ...input,
      queryEmbedding: input.queryEmbedding ? project(input.queryEmbedding) : input.queryEmbedding,
      candidateEmbeddings: input.candidateEmbeddings && new Map([...input.candidateEmbeddings].map(([id, v]) => [id, project(v)])),
    },
  };
}

function tinyModelFolder(): string {
  const bundled = path.resolve(import.meta.dirname, '../public/models/tiny-bert');
  if (fs.existsSync(path.join(bundled, 'onnx/model.onnx'))) return bundled;
  const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-bench-gqr-')), 'tiny-bert');
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/make-tiny-model.mjs'), folder], { stdio: 'pipe' });
  return folder;
}

interface RerankWorker {
  rerank(prepared: SweepPreparedQuery[], job: SweepJob): Promise<QuerySweepResult[]>;
  terminate(): Promise<number>;
}

async function startWorkers(count: number): Promise<RerankWorker[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      // Worker threads do not inherit tsx's loader: register it in the thread, then load the TypeScript worker.
      const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(
        new URL('./gqr-rerank-worker.ts', import.meta.url).href,
      )}); })`;
      const worker = new Worker(bootstrap, { eval: true });
      const pending = new Map<number, (results: QuerySweepResult[]) => void>();
      let next = 0;
      await new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        worker.on('message', (message: { ready?: boolean; id?: number; results?: QuerySweepResult[] }) => {
          if (message.ready) resolve();
          else pending.get(message.id!)?.(message.results!), pending.delete(message.id!);
        });
      });
      return {
        rerank: (prepared, job) =>
          new Promise<QuerySweepResult[]>((resolve) => {
            const id = next++;
            pending.set(id, resolve);
            worker.postMessage({ id, prepared, job });
          }),
        terminate: () => worker.terminate(),
      };
    }),
  );
}

/** Chunks of prepared queries handed to whichever worker is free, as the browser pool does. */
async function rerankInWorkers(workers: RerankWorker[], prepared: SweepPreparedQuery[], job: SweepJob): Promise<QuerySweepResult[]> {
  const size = Math.max(4, Math.ceil(prepared.length / (workers.length * 4)));
  const chunks: SweepPreparedQuery[][] = [];
  for (let i = 0; i < prepared.length; i += size) chunks.push(prepared.slice(i, i + size));
  const results: QuerySweepResult[] = [];
  let next = 0;
  await Promise.all(
    workers.map(async (worker) => {
      while (next < chunks.length) results.push(...(await worker.rerank(chunks[next++]!, job)));
    }),
  );
  return results;
}
