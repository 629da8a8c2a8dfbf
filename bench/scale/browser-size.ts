// One corpus size in a fresh Chromium: load through the app's workers into IndexedDB, search, reload, search.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { CHROMIUM_LAUNCH } from '../../src/test-support/chromium-launch.ts';
import { chromium, type Browser } from '@playwright/test';
import { rendererRssMb, sampleRenderer } from './renderer-memory.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH_PORT = Number(process.env.BENCH_SCALE_PORT ?? 4284);

export interface BrowserSizeResult {
  docs: number;
  loadMs: number;
  docsPerSecond: number;
  loadPeakMb: number;
  idleMb: number;
  firstSearchLoadMs: number;
  restoreMs: number;
  restoreWallMs: number;
  p50: number;
  p99: number;
  rawAddAllMs?: number;
  rawDocsPerSecond?: number;
}

/** Builds the bench page and serves it with vite preview; call `stop` when done. */
export async function startBenchServer(): Promise<{ url: string; stop(): void }> {
  const vite = path.join(ROOT, 'node_modules/.bin/vite');
  const config = path.join(ROOT, 'bench/browser/vite.config.ts');
  await new Promise<void>((resolve, reject) => {
    const build = spawn(vite, ['build', '--config', config, '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench page build failed (${code})`))));
  });
  const server: ChildProcess = spawn(vite, ['preview', '--config', config, '--host', '127.0.0.1', '--port', String(BENCH_PORT), '--strictPort'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${BENCH_PORT}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return { url, stop: () => server.kill() };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill();
  throw new Error(`bench page server did not start on port ${BENCH_PORT}`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export async function measureInBrowser(url: string, dir: string, baseline: boolean): Promise<BrowserSizeResult> {
  const queries = fs
    .readFileSync(path.join(dir, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  const browser: Browser = await chromium.launch(CHROMIUM_LAUNCH);
  // The browser is a child of this process, and the only one with renderers.
  const browserPid = process.pid;
  try {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(0);
    // SCALE_CONSOLE=1: the page's and its workers' console lines go to stderr (for profiling a size).
    if (process.env.SCALE_CONSOLE === '1') page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'Scale bench ready');
    await page.locator('#files').setInputFiles([path.join(dir, 'corpus.jsonl')]);
    const sampler = sampleRenderer(browserPid);
    const load = await page.evaluate((name) => (window as any).scaleBench.load(name), path.basename(dir));
    const loadPeakMb = sampler.stop();
    const search = await page.evaluate(({ id, qs }) => (window as any).scaleBench.search(id, qs), { id: load.corpusId, qs: queries });
    await page.waitForTimeout(3000);
    const idleMb = rendererRssMb(browserPid);
    await page.reload();
    await page.waitForFunction(() => document.title === 'Scale bench ready');
    const again = await page.evaluate(({ id, qs }) => (window as any).scaleBench.search(id, qs.slice(0, 1)), { id: load.corpusId, qs: queries });
    const result: BrowserSizeResult = {
      docs: load.documents,
      loadMs: load.ms,
      docsPerSecond: load.documents / (load.ms / 1000),
      loadPeakMb,
      idleMb,
      firstSearchLoadMs: search.firstLoadMs,
      restoreMs: again.firstLoadMs,
      restoreWallMs: again.firstWallMs,
      p50: percentile(search.elapsed, 0.5),
      p99: percentile(search.elapsed, 0.99),
    };
    if (baseline) {
      await page.locator('#files').setInputFiles([path.join(dir, 'corpus.jsonl')]);
      const raw = await page.evaluate(() => (window as any).scaleBench.rawAddAll());
      result.rawAddAllMs = raw.ms;
      result.rawDocsPerSecond = raw.documents / (raw.ms / 1000);
    }
    return result;
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === import.meta.filename) {
  const [dir, flag] = process.argv.slice(2);
  const server = await startBenchServer();
  try {
    console.log(JSON.stringify(await measureInBrowser(server.url, path.resolve(dir!), flag === '--baseline')));
  } finally {
    server.stop();
  }
}
