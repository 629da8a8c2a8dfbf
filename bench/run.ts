// npm run bench: speed and quality figures, each printed as a ratio against a baseline measured in the same run.
import os from 'node:os';
import { benchBm25 } from './bm25.ts';

console.log(`# Deep Search Workbench benchmarks — ${new Date().toISOString()}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);

// `npm run bench -- <section> …` runs only those sections: core, scale, real, hds-real (all by default); `dense`
// runs the dense part of core alone; `dense-peers` (never by default) exact dense at 100k and 1M against
// numpy/faiss/usearch; `peers` (only when named) BM25 beside bm25s, tantivy and Pyserini, and exact dense beside
// numpy, faiss and usearch, in one run;
// `opensearch` (only when named: it starts a 2-node cluster).
const only = process.argv.slice(2);
if (process.env.HDS_REAL_ONLY === '1') only.push('hds-real');
const wants = (section: string) => only.length === 0 || only.includes(section);
if (wants('core')) {
  await benchBm25();
  await (await import('./compare.ts')).benchCompare();
  await (await import('./hds.ts')).benchHds();
  await (await import('./dense.ts')).benchDense();
  await (await import('./gqr.ts')).benchGqr();
}
if (only.includes('dense') && !wants('core')) await (await import('./dense.ts')).benchDense();
if (only.includes('dense-peers')) await (await import('./dense.ts')).benchExactDensePeers();
if (only.includes('peers')) await (await import('./peers.ts')).benchPeers();
if (only.includes('rescore-reads')) await (await import('./rescore-reads.ts')).benchRescoreReads();
if (wants('scale')) {
  // The small end of the scale curves (the full run, up to a million passages in a tab, is npm run bench:scale).
  await (await import('./scale/run-scale.ts')).benchScale({ sizes: [10_000, 100_000], nodeSizes: [], plots: false });
}
if (wants('real')) await (await import('./real-models.ts')).benchRealModels();
if (wants('hds-real')) await (await import('./hds-real.ts')).benchHdsReal();
if (only.includes('opensearch')) await (await import('./opensearch.ts')).benchOpenSearch();
