import { expect, test } from '@playwright/test';
import { OpenAiTestServer } from '../src/test-support/openai-test-server.ts';

// A 5 MB reply streamed in 4 KB deltas (issue 11, item 13): the page must stay responsive while it streams and
// show the run finished soon after the stream ends.
const LINES = Array.from({ length: 110_000 }, (_, i) => `Line ${String(i).padStart(5, '0')}: the harbour lights and the railway.\n`);
const REPLY = `${LINES.join('')}So the answer is \\boxed{Saltmere}`;
const LONG_TASK_LIMIT_MS = 200;

let server: OpenAiTestServer;
test.afterEach(async () => {
  await server?.close();
});

test('a 5 MB reply streamed in 4 KB chunks: no main-thread task over 200 ms, bounded DOM, the run finishes soon after the stream ends', async ({ page }) => {
  test.setTimeout(240_000);
  expect(REPLY.length).toBeGreaterThan(5_000_000);
  server = new OpenAiTestServer({ respond: () => ({ content: REPLY, chunkChars: 4_096, writeDelayMs: 4 }) });
  const baseUrl = await server.start();

  // Long tasks of the page, and the moment the run shows as completed (Date.now(), the clock the server uses).
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }>; __completedAt?: number };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    new MutationObserver(() => {
      if (w.__completedAt === undefined && document.querySelector('[data-testid="run-status"]')?.textContent === 'completed') w.__completedAt = Date.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });

  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  await page.getByLabel('Question', { exact: true }).fill('Where does the railway meet the harbour?');
  const runStart = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const turn1 = page.getByRole('article', { name: 'Turn 1' });
  await expect(turn1.getByTestId('model-output')).toContainText('Line 0', { timeout: 60_000 }); // it streams
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('completed', { timeout: 180_000 });

  const streamed = server.chatRequests()[0]!.streamed!;
  const streamMs = streamed.endedAt - streamed.startedAt;
  const completedAt = await page.evaluate(() => (window as unknown as { __completedAt?: number }).__completedAt);
  const afterStreamMs = completedAt! - streamed.endedAt;
  const longTasks = (await page.evaluate(() => (window as unknown as { __longTasks: Array<{ start: number; duration: number }> }).__longTasks)).filter(
    (t) => t.start >= runStart,
  );
  const longest = Math.max(0, ...longTasks.map((t) => t.duration));
  console.log(
    `stream ${streamMs} ms; completed ${afterStreamMs} ms after its end; ${longTasks.length} long task(s), longest ${Math.round(longest)} ms, total ${Math.round(longTasks.reduce((s, t) => s + t.duration, 0))} ms`,
  );

  expect(longest).toBeLessThan(LONG_TASK_LIMIT_MS);
  expect(afterStreamMs).toBeLessThan(Math.max(2_000, streamMs / 2));
  await expect(page.getByTestId('final-answer')).toContainText('Saltmere');
  // Bounded DOM: the output shows its end, says how much is hidden, and shows all of it on request.
  await turn1.getByText('Model output', { exact: true }).click();
  const output = turn1.getByTestId('model-output');
  expect(((await output.textContent()) ?? '').length).toBeLessThan(25_000);
  expect(await output.textContent()).toMatch(/\\boxed\{Saltmere\}$/);
  await expect(turn1.getByText(/The first [\d,]+ of 5,[\d,]+ characters are hidden/)).toBeVisible();
  await turn1.getByRole('button', { name: 'Show all of the model output' }).click();
  await expect.poll(async () => ((await output.textContent()) ?? '').length).toBe(REPLY.length);
});
