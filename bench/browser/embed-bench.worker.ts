// Times `embedDocuments` in a worker, with the model loaded as the app loads it (its own /models/, wasm backend,
// threads when the page is cross-origin isolated).
import * as Comlink from 'comlink';
import type { CorpusDocument, EmbeddingDtype } from '../../src/core/index.ts';
import { loadBrowserEmbedder } from '../../src/workers/browser-embedder.ts';

export interface EmbedBenchRequest {
  modelId: string;
  dtype: EmbeddingDtype;
  docs: CorpusDocument[];
  rounds: number;
  batchSize: number;
}

export interface EmbedBenchResult {
  /** Seconds per round over all `docs`, after one untimed warm-up on the first 64. */
  seconds: number[];
  device: string;
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
}

const api = {
  async run({ modelId, dtype, docs, rounds, batchSize }: EmbedBenchRequest): Promise<EmbedBenchResult> {
    const { embedder, device } = await loadBrowserEmbedder({ source: { location: 'app', modelId }, dtype }, { preferGpu: false, batchSize });
    try {
      await embedder.embedDocuments(docs.slice(0, 64), { onBatch: () => {} });
      const seconds: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        await embedder.embedDocuments(docs, { onBatch: () => {} });
        seconds.push((performance.now() - t0) / 1000);
      }
      return { seconds, device, crossOriginIsolated: self.crossOriginIsolated, hardwareConcurrency: navigator.hardwareConcurrency };
    } finally {
      await embedder.dispose();
    }
  },
};

export type EmbedBenchApi = typeof api;
Comlink.expose(api);
