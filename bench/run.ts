// npm run bench: speed and quality figures, each printed as a ratio against a baseline measured in the same run.
// `npm run bench -- real` runs only the section "real models".
import os from 'node:os';
import { benchBm25 } from './bm25.ts';

console.log(`# Deep Search Workbench benchmarks — ${new Date().toISOString()}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);

const only = process.argv.slice(2);
if (only.length === 0) {
  await benchBm25();
  await (await import('./compare.ts')).benchCompare();
  await (await import('./hds.ts')).benchHds();
  await (await import('./dense.ts')).benchDense();
  await (await import('./gqr.ts')).benchGqr();
}
if (only.length === 0 || only.includes('real')) await (await import('./real-models.ts')).benchRealModels();
