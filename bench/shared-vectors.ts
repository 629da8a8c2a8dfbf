// Sharing a loaded vector set between workers (DESIGN.md, "Where loaded vectors live"): what the first worker pays
// to load a set into shared memory instead of plain memory, and what another worker pays to adopt it (a postMessage
// to a worker thread: the ids are cloned, the rows are not) instead of loading a copy of its own. Node over a
// MemoryVectorStore, so a load here is a lower bound of a load from IndexedDB. `nice -n 15 npx tsx bench/shared-vectors.ts`
import { Worker } from 'node:worker_threads';
import {
  loadCompactVectors,
  loadVectorMatrix,
  MemoryVectorStore,
  shareableVectorSet,
  vectorSetIdentity,
  type EmbeddingSetRecord,
  type LoadedVectors,
  type ShareableVectorSet,
} from '../src/core/index.ts';
import { seededRandom, unitRows } from '../src/test-support/random-vectors.ts';

const DIMS = 384;
const CHUNK = 4096;
const ROWS = Number(process.env.DSW_BENCH_SHARED_ROWS ?? 100_000);

async function storedSet(rows: number): Promise<{ store: MemoryVectorStore; set: EmbeddingSetRecord }> {
  const store = new MemoryVectorStore();
  const model = { modelId: 'synthetic', dtype: 'fp32', pooling: 'mean', dimensions: DIMS, prefixes: { query: '', passage: '' } } as const;
  const record: EmbeddingSetRecord = {
    corpusId: 'c', modelKey: 'm', model, source: { location: 'path', modelId: 'synthetic' }, maxTokens: 128, chunkRows: CHUNK, tokens: false,
    totalRows: rows, rowsDone: 0, lastId: null, complete: false, device: 'cpu', bytes: 0, createdAt: 1, updatedAt: 1,
  };
  await store.createSet(record);
  const random = seededRandom(3);
  for (let first = 0, index = 0; first < rows; first += CHUNK, index++) {
    const n = Math.min(CHUNK, rows - first);
    const ids = Array.from({ length: n }, (_, r) => `doc-${first + r}`);
    const vectors = unitRows(random, n, DIMS);
    await store.writeChunk('c', 'm', { index, ids, vectors }, [], { rowsDone: first + n, lastId: ids[n - 1]!, complete: first + n === rows, bytesAdded: vectors.byteLength });
  }
  return { store, set: (await store.getSet('c', 'm'))! };
}

async function best<T>(run: () => Promise<T>, tries = 3): Promise<{ ms: number; value: T }> {
  let ms = Infinity;
  let value!: T;
  for (let i = 0; i < tries; i++) {
    const started = performance.now();
    value = await run();
    ms = Math.min(ms, performance.now() - started);
  }
  return { ms, value };
}

async function startWorker(): Promise<Worker> {
  const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(
    new URL('./shared-vectors-worker.ts', import.meta.url).href,
  )}); })`;
  const worker = new Worker(bootstrap, { eval: true });
  await new Promise((resolve, reject) => (worker.once('error', reject), worker.once('message', resolve)));
  return worker;
}

function handOver(worker: Worker, set: ShareableVectorSet): Promise<number> {
  return new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(set);
  });
}

const bytes = (loaded: LoadedVectors) => ('matrix' in loaded ? loaded.matrix.rows.byteLength : loaded.compact.byteLength);
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

const worker = await startWorker();
try {
  for (const form of ['float32', 'compact'] as const) {
    const { store, set } = await storedSet(ROWS);
    const identity = vectorSetIdentity(set, form);
    // The compact form is in shared memory either way; float32 rows are copied into SharedArrayBuffers.
    const plain = form === 'float32' ? await best(async () => ({ matrix: await loadVectorMatrix(store, set) }) as LoadedVectors, 1) : null;
    const shared = await best(async () => (form === 'float32' ? { matrix: await loadVectorMatrix(store, set, { shared: true }) } : { compact: await loadCompactVectors(store, set) }) as LoadedVectors, 1);
    const offered = shareableVectorSet(identity, shared.value)!;
    const payload = 'compact' in offered ? { ...offered, scannerSlot: 1 } : offered;
    const adopt = await best(() => handOver(worker, payload));
    const first = 'matrix' in shared.value ? shared.value.matrix.rows.row(0)[0] : shared.value.compact.scales()[0];
    if (adopt.value !== first) throw new Error('the adopted view reads another value');
    console.log(
      `${ROWS.toLocaleString('en')}×${DIMS} ${form} (${mib(bytes(shared.value))}): load ${plain ? `${plain.ms.toFixed(0)} ms in plain memory, ` : ''}` +
        `${shared.ms.toFixed(0)} ms into shared memory; adopted by another thread in ${adopt.ms.toFixed(1)} ms (${(adopt.ms / shared.ms).toFixed(3)}× a load), 0 bytes of rows copied`,
    );
  }
} finally {
  await worker.terminate();
}
