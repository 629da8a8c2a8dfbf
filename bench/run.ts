// npm run bench: speed and quality figures, each printed as a ratio against a baseline measured in the same run.
import os from 'node:os';
import { benchBm25 } from './bm25.ts';

console.log(`# Deep Search Workbench benchmarks — ${new Date().toISOString()}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);

await benchBm25();
await (await import('./compare.ts')).benchCompare();
await (await import('./hds.ts')).benchHds();
await (await import('./dense.ts')).benchDense();
await (await import('./gqr.ts')).benchGqr();
// The small end of the scale curves (the full run, up to a million passages in a tab, is npm run bench:scale).
await (await import('./scale/run-scale.ts')).benchScale({ sizes: [10_000, 100_000], nodeSizes: [], plots: false });
