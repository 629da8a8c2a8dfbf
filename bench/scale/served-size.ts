// One corpus size served by `dsw serve` (its own code: startServer, with --stream-documents so that no document is
// held in memory) in a fresh Node process, measured from a client on loopback; printed as one JSON line:
//   node --expose-gc --import tsx bench/scale/served-size.ts <corpus dir>
// Latency is a client's: POST /search (BM25 top-10 with its documents read back from the spool file), JSON over
// HTTP, client and server in this one process (as a browser tab on the same machine would see it, minus the tab).
import os from 'node:os';
import { startServer } from '../../src/cli/commands/serve.ts';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: served-size.ts <corpus dir>');
const mb = (bytes: number) => bytes / 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const quiet = { out: () => {}, err: () => {}, cwd: process.cwd(), env: process.env };
const loadStart = performance.now();
const server = await startServer({ dataset: dir, port: 0, host: '127.0.0.1', allowOrigins: [], streamDocuments: true }, quiet);
const loadMs = performance.now() - loadStart;
const loadPeakMb = mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024));
gc();
const idleMb = mb(process.memoryUsage().rss);

const api = `${server.url}/api/v1/corpora/${server.corpus.info.id}`;
async function call(pathname: string, body?: unknown): Promise<any> {
  const res = await fetch(`${api}${pathname}`, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${pathname}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}
const queries = ((await call('/queries')) as Array<{ text: string }>).map((q) => q.text);
const spec = { kind: 'bm25', params: { k1: 0.9, b: 0.4, d: 0, termCountBoost: false } };
for (const query of queries.slice(0, 20)) await call('/search', { spec, query, k: 10 });
const clientMs: number[] = [];
const searchMs: number[] = [];
for (const query of queries) {
  const t = performance.now();
  const answer = (await call('/search', { spec, query, k: 10 })) as { hits: unknown[]; elapsedMs: number };
  clientMs.push(performance.now() - t);
  searchMs.push(answer.elapsedMs);
}
const percentiles = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)]!, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! };
};
clearInterval(sampler);
await server.close();
console.log(
  JSON.stringify({
    docs: server.corpus.info.documentCount,
    loadMs,
    docsPerSecond: server.corpus.info.documentCount / (loadMs / 1000),
    loadPeakMb,
    idleMb,
    queries: queries.length,
    client: percentiles(clientMs),
    search: percentiles(searchMs),
    cpus: os.cpus().length,
  }),
);
process.exit(0);
