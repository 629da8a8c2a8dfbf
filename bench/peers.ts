// `npm run bench -- peers`: the workbench beside the tools researchers would pick instead, in one run on one
// machine: BM25 top-10 one query at a time on the shared collections (bm25s, tantivy, Pyserini;
// bench/peers/bm25_peers.py), embedding speed (sentence-transformers; bench/peers/embed_speed.py), then exact dense
// search (numpy, faiss, usearch; bench/dense.ts). Each line prints the ratio and the load average, since only ratios
// measured together mean anything on a shared machine. Needs .venv-models/ (`npm run models`) with
// bench/peers/requirements.txt; skipped with a message without it. PEERS_PASSAGES (default 200000; comma-separated,
// 0 for none) adds generated MS MARCO-like collections of that many passages (bench/scale/generate-corpus.ts, kept in
// .tmp/scale/); PEERS_DENSE_1M=1 adds the 1M-row dense line; PEERS_ONLY=embedding, =bm25 or =dense runs those lines
// alone (no chart); PEERS_ONLY=chart redraws docs/peers.png from docs/peers-results.json; PEERS_PYSERINI=0 leaves
// Pyserini out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Bm25Index, documentText, EMBEDDING_MODEL_PRESETS, loadEmbedder, OKAPI_BM25, type CorpusDocument } from '../src/core/index.ts';
import { encoderFolder, encoderPresent, REAL_ENCODERS, sentenceTransformersFolder, sentenceTransformersPresent } from '../scripts/real-encoders.mjs';
import { runPeer, startPeer, venvPython } from '../scripts/python-env.mjs';
import { benchExactDensePeers } from './dense.ts';
import { embedInTab } from './embed-tab.ts';
import { ortWasmVersusNative } from './ort-wasm-in-node.ts';
import { corpusDir, generateCorpus } from './scale/generate-corpus.ts';
import { figure, heading, sharedDataset } from './harness.ts';
import { ratioChartSvg, type RatioRow } from './charts/ratio-chart.ts';
import { svgToPng } from './charts/to-png.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = 5;
/** Rounds of the workbench, tantivy and Pyserini taking turns (sub-millisecond p50s move by tens of % here). */
const TURNS = 15;
const K = 10;

interface PeerTimes {
  documents: number;
  queries: number;
  bm25s: { index_s: number; query_ms: number[] };
  tantivy: { index_s: number; index_bytes: number; query_ms: number[] };
  /** Lucene through Pyserini, or why it did not run (no JDK 21+, not installed, …). */
  pyserini:
    | { index_s: number; index_bytes: number; query_ms: number[]; version: string; java: string; k1: number; b: number; top_agreement: number | null }
    | { skipped: string };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const load = () => os.loadavg()[0]!.toFixed(1);
/** Every ratio of this run, for docs/peers.png. */
const chartRows: RatioRow[] = [];
const loads: number[] = [];

function readJsonl<T>(file: string): T[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

/** Each query's median time over `rounds` rounds, one query at a time, top `K`. */
function ourQueryTimes(index: Bm25Index, queries: readonly string[], rounds: number): number[] {
  const times = queries.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    queries.forEach((q, i) => {
      const t = performance.now();
      index.search(q, K, OKAPI_BM25);
      times[i]!.push(performance.now() - t);
    });
  }
  return times.map(median);
}

export async function benchPeers(): Promise<void> {
  const only = process.env.PEERS_ONLY;
  if (only === 'embedding') return void (await embeddingPeers());
  if (only === 'chart') return void (await drawChart(JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as PeersResults));
  if (!venvPython(ROOT)) return void console.log('peers: skipped (no .venv-models/; run `npm run models`)');
  if (only && only !== 'bm25' && only !== 'dense') return void console.log(`peers: PEERS_ONLY=${only} is none of embedding, bm25, dense, chart`);
  if (only !== 'dense') await allBm25Peers();
  if (!only) await embeddingPeers();
  if (only !== 'bm25') {
    for (const dense of await benchExactDensePeers(process.env.PEERS_DENSE_1M === '1' ? [100_000, 1_000_000] : [100_000])) {
      loads.push(os.loadavg()[0]!);
      const size = dense.rows >= 1e6 ? `${dense.rows / 1e6}M` : `${dense.rows / 1e3}k`;
      if (dense.faiss !== undefined) chartRows.push({ label: `exact dense ${size} × 384 vs faiss`, ratio: dense.faiss, goal: 1.2 });
      if (dense.numpy !== undefined) chartRows.push({ label: `exact dense ${size} × 384 vs numpy`, ratio: dense.numpy });
      if (dense.usearch !== undefined) chartRows.push({ label: `exact dense ${size} × 384 vs usearch`, ratio: dense.usearch });
      if (dense.int8ExactVsFaiss !== undefined) chartRows.push({ label: `exact dense ${size} × 384, int8 form certified, vs faiss`, ratio: dense.int8ExactVsFaiss, goal: 1.2 });
    }
  }
  if (!only) await writeChart();
}

async function allBm25Peers(): Promise<void> {
  const collections: Array<[string, string | null]> = [['npl', sharedDataset('npl')], ['cranfield', sharedDataset('cranfield')]];
  for (const size of (process.env.PEERS_PASSAGES ?? '200000').split(',').map(Number).filter((n) => n > 0)) {
    collections.push([`${size.toLocaleString('en-US')} generated passages`, (await generateCorpus(size, 200, corpusDir(size))).dir]);
  }
  for (const [name, dir] of collections) {
    if (!dir) {
      console.log(`peers: ../shared/data/${name} not found, skipped`);
      continue;
    }
    if (!(await bm25Peers(name, dir))) return;
  }
}

/** Passages of hotpotqa-500 embedded by both sides, and rounds per side. */
const EMBED_PASSAGES = 400;
const EMBED_ROUNDS = 3;

/**
 * Embedding speed: the workbench's `embedDocuments` (transformers.js in Node, onnxruntime-node, length-sorted
 * windows) beside sentence-transformers `encode` (PyTorch), all-MiniLM-L6-v2 fp32, the same texts (`documentText`
 * of the first passages of hotpotqa-500), batches of 32, both on every core of the machine (onnxruntime's default
 * thread count is the number of cores; torch gets the same). Ours before and after the peer; the best round of each.
 */
async function embeddingPeers(): Promise<void> {
  const encoder = REAL_ENCODERS.find((e) => e.slug === 'minilm')!;
  const dir = sharedDataset('hotpotqa-500');
  if (!dir || !encoderPresent(ROOT, encoder) || !sentenceTransformersPresent(ROOT, encoder)) {
    console.log('peers: embedding skipped (needs ../shared/data/hotpotqa-500 and all-MiniLM-L6-v2 from `npm run models`)');
    return;
  }
  const docs: CorpusDocument[] = readJsonl<{ _id: string; title?: string; text: string }>(path.join(dir, 'corpus.jsonl'))
    .slice(0, EMBED_PASSAGES)
    .map((d) => ({ id: d._id, title: d.title ?? '', text: d.text }));
  const threads = os.cpus().length;
  heading(`Embedding ${docs.length} hotpotqa-500 passages, all-MiniLM-L6-v2 fp32, batches of 32, ${threads} threads: the workbench in Node, sentence-transformers`);
  const textsFile = path.join(ROOT, '.tmp/peers-embed-texts.json');
  fs.mkdirSync(path.dirname(textsFile), { recursive: true });
  fs.writeFileSync(textsFile, JSON.stringify(docs.map(documentText)));
  const localModelPath = `${path.dirname(path.dirname(encoderFolder(ROOT, encoder)))}${path.sep}`;
  const embedder = await loadEmbedder({ modelId: encoder.presetId, localModelPath, dtype: 'fp32', batchSize: 32 });
  const ourRounds = async () => {
    const seconds: number[] = [];
    for (let r = 0; r < EMBED_ROUNDS; r++) {
      const t0 = performance.now();
      await embedder.embedDocuments(docs, { onBatch: () => {} });
      seconds.push((performance.now() - t0) / 1000);
    }
    return seconds;
  };
  try {
    await embedder.embedDocuments(docs.slice(0, 64), { onBatch: () => {} }); // warm-up
    const before = await ourRounds();
    const loadBefore = load();
    let peer: { seconds: number[]; threads: number };
    try {
      peer = JSON.parse(runPeer(ROOT, 'embed_speed.py', [sentenceTransformersFolder(ROOT, encoder), textsFile, String(EMBED_ROUNDS), String(threads)], { quiet: true }));
    } catch (err) {
      console.log(`peers: embed_speed.py failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
      return;
    }
    const after = await ourRounds();
    const ours = docs.length / Math.min(...before, ...after);
    const theirs = docs.length / Math.min(...peer.seconds);
    const at = `load ${loadBefore} → ${load()}`;
    figure('workbench embedDocuments (transformers.js, Node), best round', `${ours.toFixed(1)} docs/s`, `before ${(docs.length / Math.min(...before)).toFixed(1)}, after ${(docs.length / Math.min(...after)).toFixed(1)}`, null);
    figure(`sentence-transformers encode (PyTorch, ${peer.threads} threads), best round`, `${theirs.toFixed(1)} docs/s`, `ours ≥ theirs: ours ${(ours / theirs).toFixed(2)}× their docs/s (${at})`, ours >= theirs);
    loads.push(os.loadavg()[0]!);
    // as time per document, so that lower is better like every other bar
    chartRows.push({ label: 'embedding fp32, Node vs sentence-transformers', ratio: theirs / ours, goal: 1 });
  } finally {
    await embedder.dispose();
  }
  await tabVersusNode(encoder, docs, localModelPath);
}

/** The same passages embedded in a Chromium tab and in Node, fp32 and q8: the tab's time per passage ÷ Node's. */
async function tabVersusNode(encoder: { presetId: string }, docs: CorpusDocument[], localModelPath: string): Promise<void> {
  const dtypes = ['fp32', 'q8'] as const;
  let tab;
  try {
    tab = await embedInTab(dtypes.map((dtype) => ({ modelId: encoder.presetId, dtype, docs, rounds: EMBED_ROUNDS - 1, batchSize: 32 })));
  } catch (err) {
    console.log(`peers: the tab embedding failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    return;
  }
  for (const [i, dtype] of dtypes.entries()) {
    const embedder = await loadEmbedder({ modelId: encoder.presetId, localModelPath, dtype, batchSize: 32 });
    const seconds: number[] = [];
    try {
      await embedder.embedDocuments(docs.slice(0, 64), { onBatch: () => {} });
      for (let r = 0; r < EMBED_ROUNDS - 1; r++) {
        const t0 = performance.now();
        await embedder.embedDocuments(docs, { onBatch: () => {} });
        seconds.push((performance.now() - t0) / 1000);
      }
    } finally {
      await embedder.dispose();
    }
    const node = docs.length / Math.min(...seconds);
    const result = tab[i]!;
    const inTab = docs.length / Math.min(...result.seconds);
    const how = `${result.device}, ${result.crossOriginIsolated ? `cross-origin isolated, ${Math.min(4, result.hardwareConcurrency)} threads` : 'not isolated, 1 thread'}`;
    figure(`${dtype}: Chromium tab (${how}) / Node, best round`, `${inTab.toFixed(1)} / ${node.toFixed(1)} docs/s`, `tab within 1.5× of Node's time: ${(node / inTab).toFixed(2)}× (load ${load()})`, node / inTab <= 1.5);
    loads.push(os.loadavg()[0]!);
    chartRows.push({ label: `embedding ${dtype}, Chromium tab vs Node`, ratio: node / inTab, goal: 1.5 });
  }
  // What of that gap is the runtime: ONNX Runtime's wasm build run in Node, against its native build.
  const threads = Math.min(4, os.cpus().length);
  try {
    const rates = await ortWasmVersusNative({
      modelRoot: localModelPath,
      modelId: encoder.presetId,
      modelFile: path.join(localModelPath, encoder.presetId, 'onnx', 'model.onnx'),
      texts: docs.map(documentText),
      maxTokens: EMBEDDING_MODEL_PRESETS.find((p) => p.modelId === encoder.presetId)?.maxTokens ?? 256,
      batchSize: 32,
      threads,
      rounds: EMBED_ROUNDS - 1,
    });
    figure(
      `fp32: ONNX Runtime's wasm build in Node / its native build (${threads} threads, same batches), best round`,
      `${rates.wasm.toFixed(1)} / ${rates.native.toFixed(1)} docs/s`,
      `the runtime's own gap, no browser: ${(rates.native / rates.wasm).toFixed(2)}× (load ${load()})`,
      null,
    );
  } catch (err) {
    console.log(`peers: the wasm-in-Node comparison failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
}

// docs/peers.png and docs/peers-results.json: the ratios of this run, with its date and load range.
async function writeChart(): Promise<void> {
  if (chartRows.length === 0) return;
  const results: PeersResults = {
    date: new Date().toISOString().slice(0, 10),
    load: `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
    rows: chartRows,
  };
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 1)}\n`);
  await drawChart(results);
}

/** What docs/peers-results.json keeps of a run. */
interface PeersResults {
  date: string;
  load: string;
  rows: RatioRow[];
}

const RESULTS_FILE = path.join(ROOT, 'docs/peers-results.json');

async function drawChart({ date, load: loadRange, rows }: PeersResults): Promise<void> {
  const svg = ratioChartSvg({
    title: 'The workbench beside its peers: our time (or bytes) ÷ theirs, lower is better',
    rows,
    caption: `npm run bench -- peers, ${date}, ${os.cpus().length} cores (one thread each; embedding on all), load average ${loadRange}; only ratios from one run mean anything`,
  });
  await svgToPng(svg, path.join(ROOT, 'docs/peers.png'));
  console.log(`peers: chart written to docs/peers.png (${rows.length} ratios)`);
}

async function bm25Peers(name: string, dir: string): Promise<boolean> {
  const docs: CorpusDocument[] = readJsonl<{ _id: string; title?: string; text: string }>(path.join(dir, 'corpus.jsonl')).map((d) => ({ id: d._id, title: d.title ?? '', text: d.text }));
  const queries = readJsonl<{ text: string }>(path.join(dir, 'queries.jsonl')).map((q) => q.text);
  heading(`BM25 top-${K} on ${name} (${docs.length.toLocaleString('en-US')} documents, ${queries.length} queries), one query at a time, one thread: the workbench, bm25s, tantivy, Pyserini`);
  const t0 = performance.now();
  const index = Bm25Index.create();
  index.addAll(docs);
  const ourIndexMs = performance.now() - t0;
  ourQueryTimes(index, queries, 1); // warm-up
  const loadBefore = load();
  // The peers' process indexes, warms up, then runs a round of every engine each time ours has run one: the
  // engines take turns round by round, so a change of load falls on all of them.
  const args = [dir, '--k', String(K), '--turns', ...(process.env.PEERS_PYSERINI === '0' ? ['--no-pyserini'] : [])];
  const peerProcess = startPeer(ROOT, 'bm25_peers.py', args);
  const ourRounds: number[][] = [];
  const tantivyRounds: number[][] = [];
  let peer: PeerTimes;
  try {
    await peerProcess.next(); // ready
    for (let round = 0; round < TURNS; round++) {
      ourRounds.push(ourQueryTimes(index, queries, 1));
      // bm25s is 10–150× slower: it runs the first ROUNDS rounds only
      peerProcess.send(round < ROUNDS ? 'round' : 'round tantivy pyserini');
      tantivyRounds.push((JSON.parse(await peerProcess.next()) as { round: { tantivy: number[] } }).round.tantivy);
    }
    peerProcess.send('end');
    peer = JSON.parse(await peerProcess.next()) as PeerTimes;
  } catch (err) {
    peerProcess.stop();
    console.log(`peers: bm25_peers.py failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); are bench/peers/requirements.txt installed in .venv-models/?`);
    return false;
  }
  const ours = median(queries.map((_, i) => median(ourRounds.map((times) => times[i]!))));
  const p50 = { bm25s: median(peer.bm25s.query_ms), tantivy: median(peer.tantivy.query_ms) };
  const roundRatios = ourRounds.map((times, r) => median(times) / median(tantivyRounds[r]!)).sort((a, b) => a - b);
  const at = `load ${loadBefore} → ${load()}`;
  figure('workbench Bm25Index.search p50 (per query, the median of its rounds)', `${ours.toFixed(3)} ms`, `rounds ${ourRounds.map((t) => median(t).toFixed(3)).join(', ')}`, null);
  figure('ours ÷ tantivy, round by round (each round\'s p50; the two take turns)', roundRatios.map((r) => r.toFixed(2)).join(', '), `median ${median(roundRatios).toFixed(2)}×`, null);
  figure('bm25s retrieve p50 (same analysis, k1 0.9 b 0.4)', `${p50.bm25s.toFixed(3)} ms`, `ours ${(p50.bm25s / ours).toFixed(2)}× faster (${at})`, ours <= p50.bm25s);
  figure('tantivy 0.27 search p50 (the same terms; its BM25 k1 1.2 b 0.75)', `${p50.tantivy.toFixed(3)} ms`, `ours ≤ tantivy's: ours ${(ours / p50.tantivy).toFixed(2)}× its time (${at})`, ours <= p50.tantivy);
  figure('index build, analysis included: workbench / bm25s / tantivy (en_stem), one thread', `${(ourIndexMs / 1000).toFixed(2)} / ${peer.bm25s.index_s.toFixed(2)} / ${peer.tantivy.index_s.toFixed(2)} s`, 'ours ≤ tantivy\'s', ourIndexMs / 1000 <= peer.tantivy.index_s);
  // What the CLI's index cache writes (src/cli/index-cache.ts): the serialised index, v8-encoded.
  const ourBytes = v8.serialize(index.serialize()).byteLength;
  const short = name.replace(' generated passages', ' passages');
  loads.push(os.loadavg()[0]!);
  chartRows.push(
    { label: `BM25 p50, ${short} vs tantivy`, ratio: ours / p50.tantivy, goal: 1 },
    { label: `BM25 p50, ${short} vs bm25s`, ratio: ours / p50.bm25s },
    { label: `BM25 index build, ${short} vs tantivy`, ratio: ourIndexMs / 1000 / peer.tantivy.index_s, goal: 1 },
    { label: `BM25 index on disk, ${short} vs tantivy`, ratio: ourBytes / peer.tantivy.index_bytes, goal: 1.2 },
  );
  figure('index on disk: workbench (v8-serialised, as the CLI caches it) / tantivy (the same terms)', `${(ourBytes / 2 ** 20).toFixed(1)} / ${(peer.tantivy.index_bytes / 2 ** 20).toFixed(1)} MiB`, `ours ≤ 1.2× tantivy's: ${(ourBytes / peer.tantivy.index_bytes).toFixed(2)}×`, ourBytes <= 1.2 * peer.tantivy.index_bytes);
  // tantivy searches its files memory-mapped, so what it holds in memory is at most their size; ours is the
  // searched arrays (postings unpacked) and strings.
  const ourMemory = index.memoryBytes;
  figure('index in memory: workbench (searched arrays and strings) / tantivy (its files, memory-mapped)', `${(ourMemory / 2 ** 20).toFixed(1)} / ${(peer.tantivy.index_bytes / 2 ** 20).toFixed(1)} MiB`, `ours ≤ 1.2× tantivy's: ${(ourMemory / peer.tantivy.index_bytes).toFixed(2)}×`, ourMemory <= 1.2 * peer.tantivy.index_bytes);
  chartRows.push({ label: `BM25 index in memory, ${short} vs tantivy`, ratio: ourMemory / peer.tantivy.index_bytes, goal: 1.2 });
  const lucene = peer.pyserini;
  if ('skipped' in lucene) {
    console.log(`Pyserini (Lucene BM25): skipped: ${lucene.skipped}`);
    return true;
  }
  // Pyserini's own analysis (StandardTokenizer, Lucene's stop words, Porter): the workbench's but for the tokenizer.
  const p50Lucene = median(lucene.query_ms);
  const agreement = lucene.top_agreement === null ? '' : `; top-${K} ${(100 * lucene.top_agreement).toFixed(0)} % the same as bm25s'`;
  figure(`Pyserini ${lucene.version} LuceneSearcher.search p50 (its analysis, k1 ${lucene.k1} b ${lucene.b} as ours, Java ${lucene.java})`, `${p50Lucene.toFixed(3)} ms`, `ours ${(ours / p50Lucene).toFixed(2)}× its time (${at}${agreement})`, null);
  figure('index build: workbench / Pyserini (IndexCollection from a JsonCollection, one thread, JVM started)', `${(ourIndexMs / 1000).toFixed(2)} / ${lucene.index_s.toFixed(2)} s`, `ours ${(ourIndexMs / 1000 / lucene.index_s).toFixed(2)}× its time`, null);
  figure('index on disk: workbench / Pyserini (Lucene: ids stored, frequencies, no positions)', `${(ourBytes / 2 ** 20).toFixed(1)} / ${(lucene.index_bytes / 2 ** 20).toFixed(1)} MiB`, `ours ${(ourBytes / lucene.index_bytes).toFixed(2)}× its bytes`, null);
  chartRows.push(
    { label: `BM25 p50, ${short} vs Pyserini`, ratio: ours / p50Lucene },
    { label: `BM25 index build, ${short} vs Pyserini`, ratio: ourIndexMs / 1000 / lucene.index_s },
    { label: `BM25 index on disk, ${short} vs Pyserini`, ratio: ourBytes / lucene.index_bytes },
  );
  return true;
}
