import { expect, test, type Page } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest } from '../src/test-support/openai-test-server.ts';
import { loadAndEmbedSample } from './support.ts';

// One copy per tab of a corpus's loaded vectors: in a cross-origin isolated page the GQR worker loads the tiny-bert
// vectors of the sample corpus into shared memory, and the retrieval and HDS workers adopt them (the page's broker
// records all three, the Search page says so); without isolation each worker loads its own copy, with the same
// results.

interface ShareEvent {
  kind: 'loaded' | 'shared';
  worker: string;
  key: string;
}

const QUERY = 'lighthouse keeper rescues shipwrecked sailors in a storm';

/** The broker's record of loads and hand-overs, or null when the page has no broker (not cross-origin isolated). */
function shareEvents(page: Page): Promise<ShareEvent[] | null> {
  return page.evaluate(() => (globalThis as { __dswVectorShare?: { events: ShareEvent[] } }).__dswVectorShare?.events.map((e) => ({ ...e })) ?? null);
}

/** A dense search from the Search page: the results' texts and the stats line. */
async function denseSearch(page: Page): Promise<{ results: string[]; stats: string }> {
  await page.goto('/#/search');
  await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Query').fill(QUERY);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const items = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  await expect(page.getByTestId('search-stats')).toContainText(/10 result\(s\)/);
  return { results: await items.allInnerTexts(), stats: (await page.getByTestId('search-stats').textContent()) ?? '' };
}

/** A small α sweep from the GQR lab (its lead worker prepares the queries with the dense child): the results table. */
async function gqrSweep(page: Page, name: string): Promise<string[]> {
  await page.goto('/#/gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5, 1');
  await page.getByLabel('Sweep name').fill(name);
  await page.getByRole('button', { name: /^Run sweep: 6 grid points × 54 queries/ }).click();
  await expect(page.getByRole('region', { name: 'Sweep results' }).getByRole('heading', { name })).toBeVisible({ timeout: 120_000 });
  const wins = page.getByRole('table', { name: 'Wins, ties and losses against the primary' });
  await expect(wins.locator('tbody tr')).toHaveCount(6);
  const primary = (await page.getByTestId('wins-primary').textContent()) ?? '';
  return [primary, ...(await wins.locator('tbody tr').allInnerTexts()), (await page.getByTestId('best-point').textContent()) ?? ''];
}

/** A two-turn Hybrid Deep Searcher run with the dense retriever (one search, then the answer): the results shown. */
async function hdsRun(page: Page, baseUrl: string): Promise<string[]> {
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  const retriever = page.getByRole('group', { name: 'Retriever' });
  await retriever.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await expect(retriever.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Question', { exact: true }).fill('Who rescued the sailors?');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed');
  const results = timeline.getByRole('article', { name: 'Turn 1' }).getByRole('list', { name: `Results for ${QUERY}` }).getByRole('listitem');
  await expect(results.first()).toBeVisible();
  return results.allInnerTexts();
}

let server: OpenAiTestServer | undefined;
test.afterEach(async () => {
  await server?.close();
});

const turnOf = (request: RecordedRequest): number => Number(/Turn: (\d+)\//.exec(request.body?.messages?.[0]?.content ?? '')?.[1] ?? 0);

test('the retrieval and HDS workers adopt the vectors the GQR worker loaded (shared memory), with the results of the unshared path', async ({ page, context }) => {
  test.setTimeout(360_000); // embedding, two sweeps and two deep searches on a busy 2-core machine
  server = new OpenAiTestServer({
    respond: (request) => ({ content: turnOf(request) === 1 ? `<|begin search queries|>${QUERY}<|end search queries|>` : '\\boxed{the keeper}' }),
  });
  const baseUrl = await server.start();

  await page.goto('/#/corpora');
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  await loadAndEmbedSample(page, { embedTimeout: 120_000 });
  expect((await shareEvents(page)) ?? []).toEqual([]); // embedding loads no set for searching (the broker starts with the first worker that searches)

  // Shared: the GQR lead worker reads the set from IndexedDB into SharedArrayBuffers and offers it; the retrieval
  // worker (a dense search) and the HDS worker (a deep search) take it instead of reading storage.
  const sharedSweep = await gqrSweep(page, 'shared');
  const events = (await shareEvents(page))!;
  const key = events[0]?.key ?? '';
  expect(JSON.parse(key)).toEqual([expect.any(String), expect.stringContaining('tiny-bert'), 'float32']);
  expect(events).toEqual([{ kind: 'loaded', worker: 'gqr-0', key }]);
  const shared = await denseSearch(page);
  expect(shared.stats).toContain('168 vectors of tiny-bert shared by another worker (same memory, not loaded again)');
  const sharedHds = await hdsRun(page, baseUrl);
  expect(await shareEvents(page)).toEqual([
    { kind: 'loaded', worker: 'gqr-0', key },
    { kind: 'shared', worker: 'retrieval', key },
    { kind: 'shared', worker: 'hds', key },
  ]);
  // The broker holds the rows in shared memory, as the workers do.
  expect(
    await page.evaluate(() => {
      const broker = (globalThis as { __dswVectorShare?: { size: number; sets: Map<string, { matrix: { chunks: Float32Array[] } }> } }).__dswVectorShare!;
      return [broker.size, [...broker.sets.values()].every((set) => set.matrix.chunks.every((chunk) => chunk.buffer instanceof SharedArrayBuffer))];
    }),
  ).toEqual([1, true]);

  // Unshared: the same page without the isolation headers has no SharedArrayBuffer and no broker; each worker
  // loads its own copy from IndexedDB, and every result is the same.
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
  await page.goto('/#/corpora');
  await page.reload();
  expect(await page.evaluate(() => [self.crossOriginIsolated, typeof SharedArrayBuffer])).toEqual([false, 'undefined']);
  const unshared = await denseSearch(page);
  expect(unshared.stats).toContain('168 vectors of tiny-bert restored from storage');
  expect(unshared.results).toEqual(shared.results);
  expect(await gqrSweep(page, 'unshared')).toEqual(sharedSweep);
  expect(await hdsRun(page, baseUrl)).toEqual(sharedHds);
  expect(await shareEvents(page)).toBeNull();
});
