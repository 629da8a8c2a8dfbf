// One corpus size in a fresh Node process (so that peak RSS is this size's own), printed as one JSON line:
//   npx tsx bench/scale/node-size.ts <corpus dir> [--baseline]
// Loads the folder through the workbench loader into an index-only store (documents are streamed, not kept),
// then measures query latency, restore time and, with --baseline, raw MiniSearch on the same documents.
import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { Bm25Index, IndexOnlyCorpusStore, loadCorpus, MiniSearchBm25 } from '../../src/core/index.ts';
import { directorySources } from '../../src/cli/node-sources.ts';

const [dir, ...flags] = process.argv.slice(2);
if (!dir) throw new Error('usage: node-size.ts <corpus dir> [--baseline]');
const baseline = flags.includes('--baseline');
const mb = (bytes: number) => bytes / 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const sources = await directorySources(dir);
const store = new IndexOnlyCorpusStore();
const loadStart = performance.now();
const { corpus, index } = await loadCorpus(sources, { name: path.basename(dir) }, store);
const loadMs = performance.now() - loadStart;
const loadPeakMb = mb(Math.max(peakRss, process.resourceUsage().maxRSS * 1024));
const queries = (await store.getQueries(corpus.id)).map((q) => q.text);

gc();
// RSS after a full GC, and what it is made of: V8's heap in use and the typed arrays outside it (mostly the index);
// the rest is freed memory the allocator has not returned to the system, plus Node itself.
const idle = process.memoryUsage();
const idleMb = mb(idle.rss);
const idleHeapMb = mb(idle.heapUsed);
const idleArrayBuffersMb = mb(idle.arrayBuffers);
const serialized = index.serialize();
const c = serialized.compact;
const indexMb = mb(index.memoryBytes);

function latencies(search: (q: string) => unknown): { p50: number; p99: number; mean: number } {
  for (const q of queries.slice(0, 20)) search(q);
  const times = queries.map((q) => {
    const t = performance.now();
    search(q);
    return performance.now() - t;
  });
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length * 0.5)]!,
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!,
    mean: times.reduce((s, t) => s + t, 0) / times.length,
  };
}
const compact = latencies((q) => index.search(q, 10));
// The same choice of kernel with the term-at-a-time kernel before blocking (accumulators over the whole corpus),
// same queries, same process: the blocked kernel's baseline, and a check that both give the same top-10.
index.strategy = 'auto-unblocked';
const unblocked = latencies((q) => index.search(q, 10));
let unblockedMismatches = 0;
for (const q of queries) {
  index.strategy = 'auto-unblocked';
  const a = JSON.stringify(index.search(q, 10));
  index.strategy = 'auto';
  if (JSON.stringify(index.search(q, 10)) !== a) unblockedMismatches++;
}
index.strategy = 'auto';

const restoreStart = performance.now();
const restored = Bm25Index.restore(structuredClone(serialized));
restored.search(queries[0]!, 10);
const restoreMs = performance.now() - restoreStart;

const result: Record<string, unknown> = {
  docs: corpus.documentCount,
  terms: index.termCount,
  postings: c.termStarts[c.termStarts.length - 1],
  loadMs,
  docsPerSecond: corpus.documentCount / (loadMs / 1000),
  loadPeakMb,
  idleMb,
  idleHeapMb,
  idleArrayBuffersMb,
  indexMb,
  restoreMs,
  queries: queries.length,
  compact,
  unblocked,
  unblockedMismatches,
};

if (baseline) {
  // The same documents, parsed up front (not timed), then MiniSearch's own addAll and the MiniSearch index the
  // workbench used before (nested maps) for query latency and exactness.
  const docs = fs
    .readFileSync(path.join(dir, 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line)
    .map((line) => {
      const d = JSON.parse(line) as { _id: string; title: string; text: string };
      return { id: d._id, title: d.title, text: d.text };
    });
  const rawStart = performance.now();
  new MiniSearch({ fields: ['title', 'text'] }).addAll(docs);
  const rawMs = performance.now() - rawStart;
  gc();
  const reference = MiniSearchBm25.create();
  reference.addAll(docs);
  const old = latencies((q) => reference.search(q, 10));
  let mismatches = 0;
  let maxScoreDiff = 0;
  for (const q of queries) {
    const a = index.search(q, 10);
    const b = reference.search(q, 10);
    if (a.map((h) => h.id).join() !== b.map((h) => h.id).join()) mismatches++;
    a.forEach((h, i) => (maxScoreDiff = Math.max(maxScoreDiff, Math.abs(h.score - (b[i]?.score ?? Infinity)))));
  }
  Object.assign(result, { rawAddAllMs: rawMs, rawDocsPerSecond: docs.length / (rawMs / 1000), minisearch: old, mismatches, maxScoreDiff });
}
clearInterval(sampler);
console.log(JSON.stringify(result));
process.exit(0);
