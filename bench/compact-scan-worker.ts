// A worker thread of the dense bench: adopts compact vectors over shared memory and returns the int8 candidates
// of the row range it is asked for, using its own scratch slot.
import { parentPort, workerData } from 'node:worker_threads';
import { CompactVectors, searchCompact, type QueryEmbedding, type SharedCompactVectors } from '../src/core/index.ts';

const { shared, slot } = workerData as { shared: SharedCompactVectors; slot: number };
const vectors = CompactVectors.adopt(shared);

parentPort!.on('message', async (message: { query: QueryEmbedding; k: number; start: number; end: number }) => {
  const hits = await searchCompact(vectors, message.query, message.k, { slot, start: message.start, end: message.end, approximate: true });
  parentPort!.postMessage(hits);
});
parentPort!.postMessage('ready');
