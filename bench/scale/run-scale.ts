// npm run bench:scale — BM25 at scale: generated MS MARCO-like corpora of growing size, in Node and in a Chromium
// tab, each figure with its goal and, where there is one, as a ratio against a baseline measured in the same run.
// Sizes: SCALE_SIZES (tab and Node, default 10000,100000,300000,1000000; empty for none), SCALE_NODE_SIZES (Node
// only, e.g. 8800000), SCALE_SERVED_SIZES (served by `dsw serve --stream-documents` and searched over loopback HTTP;
// default none), SCALE_BASELINE_MAX (largest size that also runs raw MiniSearch, default 100000).
// MS MARCO size in Node, unattended (generation resumes where an interrupted run stopped; other sizes' results
// are kept):  SCALE_SIZES= SCALE_NODE_SIZES=8800000 SCALE_BROWSER=0 nice -n 10 npm run bench:scale
// Writes docs/scale-results.json (kept in git: every size's latest figures, each with its date and the machine's load
// average, so a long size measured alone still plots beside the others) and the plots docs/scale-*.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { figure, heading } from '../harness.ts';
import { measureInBrowser, startBenchServer, type BrowserSizeResult } from './browser-size.ts';
import { corpusDir, generateCorpus } from './generate-corpus.ts';
import { lineChartSvg, type LineChartSpec } from '../charts/line-chart.ts';
import { svgsToPng } from '../charts/to-png.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RESULTS_FILE = path.join(ROOT, 'docs/scale-results.json');
/** When a size was measured and how busy the machine was (1-minute load average before and after). */
interface Measured {
  measuredAt?: string;
  loadAverage?: [number, number];
}
// An empty list (SCALE_SIZES=) measures none of those sizes.
const list = (value: string | undefined, fallback: number[]) => (value !== undefined ? value.split(',').filter(Boolean).map(Number) : fallback);

interface NodeResult extends Measured {
  docs: number;
  loadMs: number;
  docsPerSecond: number;
  loadPeakMb: number;
  idleMb: number;
  indexMb: number;
  restoreMs: number;
  compact: { p50: number; p99: number };
  /** The same queries with the term-at-a-time kernel before blocking (same process): the kernel's baseline. */
  unblocked?: { p50: number; p99: number };
  unblockedMismatches?: number;
  rawDocsPerSecond?: number;
  minisearch?: { p50: number; p99: number };
  mismatches?: number;
  maxScoreDiff?: number;
}

interface ServedResult extends Measured {
  docs: number;
  loadMs: number;
  docsPerSecond: number;
  loadPeakMb: number;
  idleMb: number;
  /** POST /search as the client sees it (HTTP, JSON, the 10 documents read back). */
  client: { p50: number; p99: number };
  /** The server's own `elapsedMs` for the same requests. */
  search: { p50: number; p99: number };
}

/** Runs one bench script on one corpus folder in a fresh Node process and returns its last JSON line. */
function measureInProcess<T>(script: string, dir: string, flags: string[] = []): T & Measured {
  const args = ['--expose-gc', '--max-old-space-size=20000', '--import', 'tsx', path.join(ROOT, 'bench/scale', script), dir, ...flags];
  const before = os.loadavg()[0]!;
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`${script} on ${dir} failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
  return { ...result, measuredAt: new Date().toISOString(), loadAverage: [before, os.loadavg()[0]!] };
}

function measureInNode(dir: string, baseline: boolean): NodeResult {
  return measureInProcess<NodeResult>('node-size.ts', dir, baseline ? ['--baseline'] : []);
}

export async function benchScale(options: { sizes?: number[]; nodeSizes?: number[]; baselineMax?: number; plots?: boolean } = {}): Promise<void> {
  const sizes = options.sizes ?? list(process.env.SCALE_SIZES, [10_000, 100_000, 300_000, 1_000_000]);
  const nodeOnly = options.nodeSizes ?? list(process.env.SCALE_NODE_SIZES, []);
  const servedSizes = list(process.env.SCALE_SERVED_SIZES, []);
  const baselineMax = options.baselineMax ?? Number(process.env.SCALE_BASELINE_MAX ?? 100_000);
  const sizesToGenerate = [...new Set([...sizes, ...nodeOnly, ...servedSizes])];
  heading(`BM25 at scale: generated MS MARCO-like passages (bench/scale/generate-corpus.ts), sizes ${sizesToGenerate.join(', ')}`);
  const node: NodeResult[] = [];
  const tab: BrowserSizeResult[] = [];
  const served: ServedResult[] = [];
  for (const n of sizesToGenerate) await generateCorpus(n, 500, corpusDir(n));

  for (const n of [...sizes, ...nodeOnly]) {
    const r = measureInNode(corpusDir(n), n <= baselineMax);
    node.push(r);
    const label = `Node ${n.toLocaleString('en')}`;
    figure(`${label}: load (stream, parse, index, serialise)`, `${(r.loadMs / 1000).toFixed(1)} s`, `report (${Math.round(r.docsPerSecond)} docs/s)`, null);
    figure(`${label}: peak RSS loading / idle / index bytes`, `${r.loadPeakMb.toFixed(0)} / ${r.idleMb.toFixed(0)} / ${r.indexMb.toFixed(0)} MB`, n >= 8_000_000 ? 'index ≤ 8 GB resident' : 'report', n >= 8_000_000 ? r.idleMb <= 8192 : null);
    figure(`${label}: BM25 top-10 p50 / p99`, `${r.compact.p50.toFixed(2)} / ${r.compact.p99.toFixed(1)} ms`, n >= 8_000_000 ? 'p50 ≤ 100 ms' : 'report', n >= 8_000_000 ? r.compact.p50 <= 100 : null);
    if (r.unblocked) {
      figure(`${label}: top-10 p50 / p99 with the unblocked term-at-a-time kernel (baseline)`, `${r.unblocked.p50.toFixed(2)} / ${r.unblocked.p99.toFixed(1)} ms`, 'baseline', null);
      figure(`${label}: blocked ÷ unblocked term-at-a-time p50 speed-up`, `${(r.unblocked.p50 / r.compact.p50).toFixed(2)}×`, '≥ 1×', r.unblocked.p50 >= r.compact.p50);
      figure(`${label}: blocked and unblocked top-10 identical`, `${r.unblockedMismatches} differ`, '0 differ', r.unblockedMismatches === 0);
    }
    figure(`${label}: restore (clone + restore + 1st query)`, `${r.restoreMs.toFixed(0)} ms`, 'report', null);
    if (r.minisearch) {
      figure(`${label}: MiniSearch index top-10 p50 (baseline)`, `${r.minisearch.p50.toFixed(2)} ms`, 'baseline', null);
      figure(`${label}: p50 speed-up over the MiniSearch index`, `${(r.minisearch.p50 / r.compact.p50).toFixed(1)}×`, '> 1×', r.minisearch.p50 > r.compact.p50);
      figure(`${label}: ingest ÷ raw MiniSearch addAll throughput`, `${(r.docsPerSecond / r.rawDocsPerSecond!).toFixed(2)}×`, '≥ 0.8×', r.docsPerSecond / r.rawDocsPerSecond! >= 0.8);
      figure(`${label}: top-10 identical to the MiniSearch index`, `${r.mismatches} differ, Δscore ≤ ${r.maxScoreDiff!.toExponential(1)}`, '0 differ, ≤ 1e-9', r.mismatches === 0 && r.maxScoreDiff! <= 1e-9);
    }
  }

  for (const n of servedSizes) {
    const r = measureInProcess<ServedResult>('served-size.ts', corpusDir(n));
    served.push(r);
    const label = `dsw serve ${n.toLocaleString('en')} (--stream-documents)`;
    const msmarco = n >= 8_000_000;
    figure(`${label}: load`, `${(r.loadMs / 1000).toFixed(1)} s`, `report (${Math.round(r.docsPerSecond)} docs/s)`, null);
    figure(`${label}: peak RSS loading / idle`, `${r.loadPeakMb.toFixed(0)} / ${r.idleMb.toFixed(0)} MB`, msmarco ? 'idle ≤ 8 GB' : 'report', msmarco ? r.idleMb <= 8192 : null);
    figure(`${label}: POST /search top-10 with documents, client p50 / p99`, `${r.client.p50.toFixed(2)} / ${r.client.p99.toFixed(1)} ms`, msmarco ? 'p50 ≤ 100 ms' : 'report', msmarco ? r.client.p50 <= 100 : null);
    figure(`${label}: the server's search time p50 / p99`, `${r.search.p50.toFixed(2)} / ${r.search.p99.toFixed(1)} ms`, 'report', null);
  }

  if (process.env.SCALE_BROWSER !== '0') {
    const server = await startBenchServer();
    try {
      for (const n of sizes) {
        const before = os.loadavg()[0]!;
        const measured = await measureInBrowser(server.url, corpusDir(n), n <= baselineMax);
        const r: BrowserSizeResult & Measured = { ...measured, measuredAt: new Date().toISOString(), loadAverage: [before, os.loadavg()[0]!] };
        tab.push(r);
        const label = `tab ${n.toLocaleString('en')}`;
        const million = n >= 1_000_000;
        figure(`${label}: load into IndexedDB + index`, `${(r.loadMs / 1000).toFixed(1)} s`, million ? '≤ 300 s' : `report (${Math.round(r.docsPerSecond)} docs/s)`, million ? r.loadMs <= 300_000 : null);
        figure(`${label}: renderer peak loading / idle`, `${r.loadPeakMb.toFixed(0)} / ${r.idleMb.toFixed(0)} MB`, million ? '≤ 2048 / ≤ 1229 MB' : 'report', million ? r.loadPeakMb <= 2048 && r.idleMb <= 1229 : null);
        figure(`${label}: BM25 top-10 p50 / p99 (in the worker)`, `${r.p50.toFixed(2)} / ${r.p99.toFixed(1)} ms`, million ? 'p50 ≤ 30, p99 ≤ 150 ms' : 'report', million ? r.p50 <= 30 && r.p99 <= 150 : null);
        figure(`${label}: restore after reload (IndexedDB → index)`, `${r.restoreMs.toFixed(0)} ms`, million ? '≤ 2000 ms' : 'report', million ? r.restoreMs <= 2000 : null);
        if (r.rawDocsPerSecond) {
          figure(`${label}: raw MiniSearch addAll in the page (baseline)`, `${Math.round(r.rawDocsPerSecond)} docs/s`, 'baseline', null);
          figure(`${label}: ingest ÷ raw MiniSearch addAll throughput`, `${(r.docsPerSecond / r.rawDocsPerSecond).toFixed(2)}×`, '≥ 0.8×', r.docsPerSecond / r.rawDocsPerSecond >= 0.8);
        }
      }
    } finally {
      server.stop();
    }
  }

  // Results of earlier runs at other sizes are kept, so that a long size can be measured on its own.
  const file = RESULTS_FILE;
  const earlier = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { node: NodeResult[]; tab: BrowserSizeResult[]; served?: ServedResult[] })
    : { node: [], tab: [], served: [] };
  const merge = <T extends { docs: number }>(old: T[], fresh: T[]) =>
    [...old.filter((r) => !fresh.some((f) => f.docs === r.docs)), ...fresh].sort((a, b) => a.docs - b.docs);
  const all = { node: merge(earlier.node, node), tab: merge(earlier.tab, tab), served: merge(earlier.served ?? [], served) };
  fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...all }, null, 2)}\n`);
  if (options.plots === false || all.node.length < 2) return;
  await plotScale(all.node, all.tab, all.served);
}

async function plotScale(node: NodeResult[], tab: BrowserSizeResult[], served: ServedResult[] = []): Promise<void> {
  const pts = (rows: Array<{ docs: number }>, f: (r: any) => number) => rows.map((r) => [r.docs, f(r)] as [number, number]);
  const charts: Record<string, LineChartSpec> = {
    'scale-load-time': {
      title: 'BM25 load time vs corpus size',
      xLabel: 'passages',
      yLabel: 'seconds',
      series: [
        { name: 'tab: stream + parse + IndexedDB + index', points: pts(tab, (r) => r.loadMs / 1000) },
        { name: 'Node: stream + parse + index', points: pts(node, (r) => r.loadMs / 1000) },
      ].filter((s) => s.points.length),
      goal: { value: 300, label: 'goal at 1M in the tab: 300 s' },
    },
    'scale-memory': {
      title: 'Peak memory while loading vs corpus size',
      xLabel: 'passages',
      yLabel: 'MB',
      series: [
        { name: 'tab renderer peak', points: pts(tab, (r) => r.loadPeakMb) },
        { name: 'tab renderer idle', points: pts(tab, (r) => r.idleMb) },
        { name: 'Node peak RSS', points: pts(node, (r) => r.loadPeakMb) },
        { name: 'index bytes', points: pts(node, (r) => r.indexMb) },
      ].filter((s) => s.points.length),
      goal: { value: 2048, label: 'tab goal at 1M: 2 GB' },
    },
    'scale-query-latency': {
      title: 'BM25 top-10 latency vs corpus size',
      xLabel: 'passages',
      yLabel: 'ms',
      series: [
        { name: 'tab p50', points: pts(tab, (r) => r.p50) },
        { name: 'tab p99', points: pts(tab, (r) => r.p99) },
        { name: 'Node p50', points: pts(node, (r) => r.compact.p50) },
        { name: 'Node p99', points: pts(node, (r) => r.compact.p99) },
        { name: 'dsw serve p50 (HTTP client)', points: pts(served, (r) => r.client.p50) },
      ].filter((s) => s.points.length),
      goal: { value: 30, label: 'tab p50 goal: 30 ms' },
    },
  };
  const items = Object.entries(charts).map(([name, chart]) => {
    const svg = lineChartSvg({ ...chart, xLog: true });
    const file = path.join(ROOT, 'docs', `${name}.png`);
    fs.writeFileSync(file.replace(/\.png$/, '.svg'), svg);
    return { svg, file };
  });
  await svgsToPng(items);
  const written = items.map((i) => i.file);
  console.log(`\nplots: ${written.map((f) => path.relative(ROOT, f)).join(', ')}`);
}

if (process.argv[1] === import.meta.filename) {
  const file = RESULTS_FILE;
  if (process.argv.includes('--plot-only')) {
    const all = JSON.parse(fs.readFileSync(file, 'utf8')) as { node: NodeResult[]; tab: BrowserSizeResult[]; served?: ServedResult[] };
    await plotScale(all.node, all.tab, all.served);
  } else {
    await benchScale();
  }
}
