// The page the tab half of the embedding peers drives: one worker that loads models the way the app's embed worker
// does (src/workers/browser-embedder.ts) and times `embedDocuments`.
import * as Comlink from 'comlink';
import type { EmbedBenchApi } from './embed-bench.worker.ts';

const worker = Comlink.wrap<EmbedBenchApi>(new Worker(new URL('./embed-bench.worker.ts', import.meta.url), { type: 'module', name: 'embed-bench' }));
(window as unknown as { embedBench: EmbedBenchApi }).embedBench = {
  run: (request) => worker.run(request),
};
document.title = 'Embedding bench ready';
