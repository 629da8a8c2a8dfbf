// The tab half of bench/rescore-reads.ts: a set stored in the app's IndexedDB schema twice (chunks as Blobs, as the
// store writes them now, and as Float32Arrays, as it wrote them before), loaded in its compact form as a worker loads
// a set of ≥ 200k rows, then the rows rescoring asks for read back through it.
import { loadCompactVectors, type EmbeddingSetRecord } from '../../src/core/index.ts';
import { IdbVectorStore, openWorkbenchDb } from '../../src/storage/index.ts';

export interface RescoreBenchRequest {
  rows: number;
  dims: number;
  chunkRows: number;
  /** Rows asked per query, and queries per size. */
  asked: number[];
  queries: number;
}

export interface RescoreBenchResult {
  /** Per rows asked: milliseconds per query (the median; and the first query). */
  reads: Array<{ asked: number; form: 'blob' | 'array'; firstMs: number; medianMs: number }>;
  storeMs: Record<'blob' | 'array', number>;
  /** Loading the compact form (every chunk read and quantised). */
  loadMs: Record<'blob' | 'array', number>;
}

const value = (i: number) => ((i * 2654435761) % 1000) / 1000 - 0.5;

async function run(request: RescoreBenchRequest): Promise<RescoreBenchResult> {
  const { rows, dims, chunkRows } = request;
  const db = await openWorkbenchDb(`rescore-bench-${Date.now()}`);
  const store = new IdbVectorStore(db);
  const model = { modelId: 'synthetic', dtype: 'fp32', pooling: 'mean', dimensions: dims, prefixes: { query: '', passage: '' } } as const;
  const sets: Record<'blob' | 'array', EmbeddingSetRecord> = {} as never;
  const storeMs = { blob: 0, array: 0 };
  for (const form of ['blob', 'array'] as const) {
    const record: EmbeddingSetRecord = {
      corpusId: 'c', modelKey: form, model, source: { location: 'path', modelId: 'synthetic' }, maxTokens: 128, chunkRows, tokens: false,
      totalRows: rows, rowsDone: 0, lastId: null, complete: false, device: 'cpu', bytes: 0, createdAt: 1, updatedAt: 1,
    };
    await store.createSet(record);
    const started = performance.now();
    for (let first = 0, index = 0; first < rows; first += chunkRows, index++) {
      const n = Math.min(chunkRows, rows - first);
      const ids = Array.from({ length: n }, (_, r) => `doc-${first + r}`);
      const vectors = Float32Array.from({ length: n * dims }, (_, i) => value(i));
      const progress = { rowsDone: first + n, lastId: ids[n - 1]!, complete: first + n === rows, bytesAdded: vectors.byteLength };
      if (form === 'blob') await store.writeChunk('c', form, { index, ids, vectors }, [], progress);
      else {
        // as the store wrote chunks before Blobs
        await db.put('vectorChunks', { corpusId: 'c', modelKey: form, chunk: index, kind: 'pooled', ids, vectors });
        await db.put('embeddingSets', { ...(await db.get('embeddingSets', ['c', form]))!, ...progress });
      }
    }
    storeMs[form] = performance.now() - started;
    sets[form] = (await store.getSet('c', form))!;
  }
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const reads: RescoreBenchResult['reads'] = [];
  const loadMs = { blob: 0, array: 0 };
  for (const asked of request.asked) {
    for (const form of ['blob', 'array'] as const) {
      // loaded afresh for each size and form, as a worker loads a set
      const started = performance.now();
      const compact = await loadCompactVectors(store, sets[form]);
      loadMs[form] = performance.now() - started;
      const floatRows = compact.floatRows;
      const times: number[] = [];
      for (let q = 0; q < request.queries; q++) {
        const wanted = Array.from({ length: asked }, () => Math.floor(random() * rows));
        const started = performance.now();
        const got = await floatRows(wanted);
        times.push(performance.now() - started);
        // every chunk holds the same values: those of its row within the chunk
        got.forEach((row, k) => {
          const within = wanted[k]! % chunkRows;
          for (let j = 0; j < dims; j++) if (row[j] !== Math.fround(value(within * dims + j))) throw new Error(`row ${wanted[k]} read wrong at ${j}`);
        });
      }
      const sorted = [...times].sort((a, b) => a - b);
      reads.push({ asked, form, firstMs: times[0]!, medianMs: sorted[sorted.length >> 1]! });
    }
  }
  db.close();
  return { reads, storeMs, loadMs };
}

(window as unknown as { rescoreBench: { run: typeof run } }).rescoreBench = { run };
document.title = 'Rescoring reads bench ready';
