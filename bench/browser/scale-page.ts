// The page the browser half of the scale bench drives: the app's real corpus and retrieval workers, real IndexedDB.
import * as Comlink from 'comlink';
import MiniSearch from 'minisearch';
import { OKAPI_BM25 } from '../../src/core/index.ts';
import type { CorpusWorkerApi } from '../../src/workers/corpus-worker-api.ts';
import type { RetrievalWorkerApi } from '../../src/workers/retrieval-worker-api.ts';

const corpusWorker = Comlink.wrap<CorpusWorkerApi>(
  new Worker(new URL('../../src/workers/corpus.worker.ts', import.meta.url), { type: 'module', name: 'corpus' }),
);
const retrievalWorker = Comlink.wrap<RetrievalWorkerApi>(
  new Worker(new URL('../../src/workers/retrieval.worker.ts', import.meta.url), { type: 'module', name: 'retrieval' }),
);
const input = document.getElementById('files') as HTMLInputElement;
const log = document.getElementById('log')!;

function pickedFiles() {
  return [...(input.files ?? [])].map((file) => ({ file, path: file.name === 'test.tsv' ? `qrels/${file.name}` : file.name }));
}

const bench = {
  async load(name: string): Promise<{ ms: number; corpusId: string; documents: number }> {
    const start = performance.now();
    const loaded = await corpusWorker.load(pickedFiles(), { name }, Comlink.proxy((p) => {
      log.textContent = `${p.phase} ${p.documents ?? ''}`;
    }));
    if (loaded.corpus === null) throw new Error(loaded.message);
    const { corpus } = loaded;
    return { ms: performance.now() - start, corpusId: corpus.id, documents: corpus.documentCount };
  },

  /** Top-10 BM25 for each query; worker-side times (retrieval only) and the first call's index load time. */
  async search(corpusId: string, queries: string[]): Promise<{ elapsed: number[]; wall: number[]; firstLoadMs: number; firstWallMs: number }> {
    const spec = { kind: 'bm25' as const, params: { ...OKAPI_BM25 } };
    const t0 = performance.now();
    const first = await retrievalWorker.search(corpusId, spec, queries[0]!, 10);
    const firstWallMs = performance.now() - t0;
    const elapsed: number[] = [];
    const wall: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      const response = await retrievalWorker.search(corpusId, spec, q, 10);
      wall.push(performance.now() - t);
      elapsed.push(response.elapsedMs);
    }
    return { elapsed, wall, firstLoadMs: first.loadMs, firstWallMs };
  },

  /** Raw MiniSearch addAll on the same documents, parsed beforehand (the parse is not timed). */
  async rawAddAll(): Promise<{ ms: number; documents: number }> {
    const file = [...(input.files ?? [])].find((f) => f.name === 'corpus.jsonl')!;
    const docs = (await file.text())
      .split('\n')
      .filter((line) => line)
      .map((line) => {
        const d = JSON.parse(line) as { _id: string; title: string; text: string };
        return { id: d._id, title: d.title, text: d.text };
      });
    const start = performance.now();
    new MiniSearch({ fields: ['title', 'text'] }).addAll(docs);
    return { ms: performance.now() - start, documents: docs.length };
  },
};

(window as unknown as { scaleBench: typeof bench }).scaleBench = bench;
document.title = 'Scale bench ready';

