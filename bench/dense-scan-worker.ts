// A worker thread of the dense bench: holds the matrix over shared memory and scans the row range it is asked for.
import { parentPort, workerData } from 'node:worker_threads';
import { searchDense, VectorMatrix, type EmbeddingModelInfo, type QueryEmbedding } from '../src/core/index.ts';

const { model, chunkRows, ids, chunks } = workerData as { model: EmbeddingModelInfo; chunkRows: number; ids: string[]; chunks: Float32Array[] };
const matrix = VectorMatrix.fromChunks({ model, chunkRows }, ids, chunks);

parentPort!.on('message', (message: { id: number; query: QueryEmbedding; k: number; start: number; end: number }) => {
  const hits = searchDense(matrix, message.query, message.k, { start: message.start, end: message.end });
  parentPort!.postMessage({ id: message.id, hits });
});
parentPort!.postMessage({ ready: true });
