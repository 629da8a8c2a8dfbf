// What rescoring costs in a tab where only the compact form of a set is in memory (sets of ≥ 200k rows): the float32
// rows it asks for are read from IndexedDB. Chunks stored as Blobs (read row by row, the chunks' handles kept) against
// chunks stored as Float32Arrays (each asked chunk read whole, every query), in one tab. `npm run bench -- rescore-reads`
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../src/test-support/chromium-launch.ts';
import type { RescoreBenchRequest, RescoreBenchResult } from './browser/rescore-page.ts';
import { figure, heading } from './harness.ts';
import { startBenchServer } from './scale/browser-size.ts';

export async function benchRescoreReads(): Promise<void> {
  const rows = Number(process.env.DSW_BENCH_RESCORE_ROWS ?? 200_000);
  // 40 rows: int8 with k × 4 rescored at k = 10; 500: int8-exact on clustered rows (docs/performance.md)
  const request: RescoreBenchRequest = { rows, dims: 384, chunkRows: 512, asked: [40, 500], queries: 11 };
  heading(`Rescoring reads in a tab: ${rows.toLocaleString('en-US')} × 384 stored in 512-row chunks, rows asked at random (ms per query)`);
  const server = await startBenchServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(0);
    await page.goto(`${server.url}rescore.html`);
    await page.waitForFunction(() => document.title === 'Rescoring reads bench ready');
    const result: RescoreBenchResult = await page.evaluate((r) => (window as unknown as { rescoreBench: { run(r: RescoreBenchRequest): Promise<RescoreBenchResult> } }).rescoreBench.run(r), request);
    figure('storing the set: chunks as Blobs / as Float32Arrays', `${(result.storeMs.blob / 1000).toFixed(1)} / ${(result.storeMs.array / 1000).toFixed(1)} s`, '(for the record)', null);
    figure('loading its int8 form: Blob chunks / Float32Array chunks', `${(result.loadMs.blob / 1000).toFixed(2)} / ${(result.loadMs.array / 1000).toFixed(2)} s`, `Blob chunks no slower: ${(result.loadMs.blob / result.loadMs.array).toFixed(2)}×`, result.loadMs.blob <= result.loadMs.array);
    for (const asked of request.asked) {
      const blob = result.reads.find((r) => r.asked === asked && r.form === 'blob')!;
      const array = result.reads.find((r) => r.asked === asked && r.form === 'array')!;
      figure(
        `${asked} rows a query: Blob chunks / Float32Array chunks (median of ${request.queries})`,
        `${blob.medianMs.toFixed(1)} / ${array.medianMs.toFixed(1)} ms`,
        `Blob chunks no slower: ${(blob.medianMs / array.medianMs).toFixed(2)}× the time (first query ${blob.firstMs.toFixed(1)} / ${array.firstMs.toFixed(1)} ms)`,
        blob.medianMs <= array.medianMs,
      );
    }
  } finally {
    await browser.close();
    server.stop();
  }
}


