// The tab half of the embedding peers: `embedDocuments` in a worker of a fresh Chromium tab (bench/browser/embed.html),
// the model loaded as the app loads it from its /models/ (wasm backend; threads when cross-origin isolated).
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../src/test-support/chromium-launch.ts';
import type { EmbedBenchApi, EmbedBenchRequest, EmbedBenchResult } from './browser/embed-bench.worker.ts';
import { startBenchServer } from './scale/browser-size.ts';

/** Runs each request in its own fresh tab (one browser), in order. */
export async function embedInTab(requests: EmbedBenchRequest[]): Promise<EmbedBenchResult[]> {
  const server = await startBenchServer();
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const results: EmbedBenchResult[] = [];
    for (const request of requests) {
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(0);
      await page.goto(`${server.url}embed.html`);
      await page.waitForFunction(() => document.title === 'Embedding bench ready');
      results.push(await page.evaluate((r) => (window as unknown as { embedBench: EmbedBenchApi }).embedBench.run(r), request));
      await page.close();
    }
    return results;
  } finally {
    await browser.close();
    server.stop();
  }
}
