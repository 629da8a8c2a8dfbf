import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest } from '../src/test-support/openai-test-server.ts';

// Hostile content: one unbroken 100,000-character word, zalgo, 500 emoji without a space, very long ids.
const HUGE_WORD = 'W'.repeat(100_000);
const ZALGO = 'h̸̢̛̙̬͖̹̱̟̩̊̓͑̀̈́̍a̶̧̛̘̗̱̦̙̗̒̈́͊̌̑͠r̷̛̲̝̲͎̦͕̓̈́̿̀͠b̵̨̛̯̜̮̭̰̓̊̈́͘o̶̢̟̹̬̭̓͑̀̈́̍ų̵̛̗̱̦̙̒̈́͊r̷̲̝̲͎̦͕̓̈́̿̀͠ '.repeat(40);
const EMOJI = '🌊'.repeat(500);
const LONG_ID = `doc-${'x'.repeat(400)}`;
const LONG_QUERY_ID = `q-${'y'.repeat(400)}`;
const QUESTION = `Which harbour ${'H'.repeat(3_000)} lies beyond ${EMOJI}?`;

function hostileBeirFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-hostile-'));
  const docs = [
    { _id: LONG_ID, title: HUGE_WORD, text: `harbour ${HUGE_WORD} lights` },
    { _id: 'zalgo', title: ZALGO, text: `harbour ${ZALGO}` },
    { _id: 'emoji', title: EMOJI, text: `harbour lights ${EMOJI}` },
    { _id: 'plain', title: 'Harbour lights', text: 'The harbour lights guide the boats home.' },
    ...Array.from({ length: 12 }, (_, i) => ({ _id: `filler-${i}`, title: `Filler ${i}`, text: `harbour boats number ${i} ${'Z'.repeat(2_000 + i)}` })),
  ];
  fs.writeFileSync(path.join(dir, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
  const queries = [
    { _id: LONG_QUERY_ID, text: QUESTION, answers: [HUGE_WORD.slice(0, 5_000)] },
    { _id: 'q2', text: `harbour lights ${ZALGO}`, answers: ['Harbour lights'] },
  ];
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n'));
  fs.mkdirSync(path.join(dir, 'qrels'));
  fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), `query-id\tcorpus-id\tscore\n${LONG_QUERY_ID}\t${LONG_ID}\t1\n${LONG_QUERY_ID}\temoji\t2\nq2\tplain\t1\nq2\tzalgo\t0\n`);
  return dir;
}

/** The model streams hostile text: chips, reasoning and an answer that are one unbroken word each. */
function hostileModel(request: RecordedRequest) {
  const prompt: string = request.body?.messages?.[0]?.content ?? '';
  if (prompt.startsWith('Answer the question using the paragraphs')) return { content: HUGE_WORD.slice(0, 20_000) };
  const turn = Number(/Turn: (\d+)\//.exec(prompt)?.[1] ?? 0);
  if (turn === 1) {
    return {
      reasoning: `${ZALGO}${HUGE_WORD.slice(0, 30_000)}`,
      content: `${EMOJI}<|begin search queries|>harbour ${HUGE_WORD.slice(0, 8_000)}; ${EMOJI}; harbour lights<|end search queries|>`,
      chunkChars: 4_000,
    };
  }
  return { content: `\\boxed{${HUGE_WORD.slice(0, 20_000)}}`, chunkChars: 4_000 };
}

test.use({ viewport: { width: 1280, height: 900 } });

/** The page does not scroll sideways, and nothing sticks out of its panel (wide tables scroll inside their box). */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const overflow = await page.evaluate(() => {
    const root = document.documentElement;
    const panels = [...document.querySelectorAll<HTMLElement>('.panel')]
      .filter((p) => p.scrollWidth > p.clientWidth + 1)
      .map((p) => `${p.getAttribute('aria-label') ?? p.className}: ${p.scrollWidth} > ${p.clientWidth}`);
    return { page: root.scrollWidth - root.clientWidth, panels };
  });
  expect(overflow, `sideways overflow on ${where}`).toEqual({ page: 0, panels: [] });
}

/**
 * Records the widest the page gets between now and `stop()`: measured after every DOM change (before it is painted)
 * and every frame, so that states lasting a moment (a retrieval running) are caught too.
 */
async function watchWidth(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __widest: number; __running: number; __stopWatching: () => void };
    w.__widest = 0;
    w.__running = 0;
    const sample = () => {
      const root = document.documentElement;
      w.__widest = Math.max(w.__widest, root.scrollWidth - root.clientWidth);
      w.__running += document.querySelectorAll('.timing-bar.retrieval.running').length;
    };
    const observer = new MutationObserver(sample);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    let frame = requestAnimationFrame(function tick() {
      sample();
      frame = requestAnimationFrame(tick);
    });
    w.__stopWatching = () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  });
  return async () =>
    page.evaluate(() => {
      const w = window as unknown as { __widest: number; __running: number; __stopWatching: () => void };
      w.__stopWatching();
      return { widest: w.__widest, sawRunningRetrieval: w.__running > 0 };
    });
}

let server: OpenAiTestServer;
test.afterEach(async () => {
  await server?.close();
});

test('no page scrolls sideways at 1,280 px with hostile titles, texts, ids, queries and model output', async ({ page }) => {
  test.setTimeout(240_000);
  server = new OpenAiTestServer({ respond: hostileModel });
  const baseUrl = await server.start();

  await page.goto('/#/corpora');
  await page.getByLabel('Choose a folder').setInputFiles(hostileBeirFolder());
  await page.getByLabel('Corpus name').fill(`Hostile ${'N'.repeat(1_000)}`);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('16 documents, 2 queries, 4 relevance judgements');
  await expectNoSidewaysScroll(page, 'Corpora');

  // Search: hostile query text and hostile titles in the results and the document viewer.
  await page.goto('/#/search');
  await page.getByLabel('Query').fill(`harbour ${HUGE_WORD.slice(0, 5_000)} ${EMOJI}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem')).not.toHaveCount(0);
  await expect(results).toContainText('🌊🌊🌊');
  await expectNoSidewaysScroll(page, 'Search');
  await results.getByRole('listitem').first().getByRole('button').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSidewaysScroll(page, 'Search, document viewer');
  await page.getByRole('button', { name: 'Close document' }).click();

  await page.goto('/#/embeddings');
  await expect(page.getByRole('button', { name: 'Embed', exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page, 'Embeddings');

  // Runs: two BM25 runs with hostile names; their details.
  await page.goto('/#/runs');
  for (const [i, name] of [`Base ${HUGE_WORD.slice(0, 2_000)}`, `Other ${EMOJI}`].entries()) {
    if (i === 1) await page.getByLabel('BM25 k1').fill('2');
    await page.getByLabel('Run name').fill(name);
    await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
    await expect(page.getByTestId('run-done')).toContainText(`Saved “${name.slice(0, 20)}`);
  }
  await expectNoSidewaysScroll(page, 'Runs');
  await page.getByTestId('run-row').first().getByRole('button').first().click();
  await expect(page.getByRole('region', { name: 'Run details' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'Runs, details');

  // Compare: the per-query table and one query's rankings, which are scrolled into view and focused.
  await page.goto('/#/compare');
  await page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' }).click();
  await expect(page.getByTestId('per-query-row')).toHaveCount(2);
  await expectNoSidewaysScroll(page, 'Compare');
  await page.getByTestId('per-query-row').filter({ hasText: 'HHHH' }).getByRole('button').click();
  const sideBySide = page.getByRole('region', { name: 'Rankings side by side' });
  await expect(sideBySide.getByRole('list', { name: 'Run ranking' }).getByRole('listitem')).not.toHaveCount(0);
  await expect(sideBySide).toBeFocused();
  await expect(sideBySide).toBeInViewport();
  await expectNoSidewaysScroll(page, 'Compare, rankings side by side');

  await page.goto('/#/gqr');
  await expect(page.getByRole('heading', { name: 'GQR lab' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'GQR lab');

  // Deep search: hostile question and a model that streams hostile text; watched frame by frame while it runs.
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  await expectNoSidewaysScroll(page, 'Deep search');
  await page.getByLabel('Pick a question from the corpus').selectOption(LONG_QUERY_ID);
  const stop = await watchWidth(page);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  expect(await stop(), 'widest sideways overflow during the deep-search run').toEqual({ widest: 0, sawRunningRetrieval: true });
  await expect(page.getByRole('article', { name: 'Turn 1' }).locator('details.reasoning')).toHaveAttribute('open', ''); // reasoning is shown open
  await expectNoSidewaysScroll(page, 'Deep search, finished run');

  // A batch: the per-question table shows the question text and stays in its panel; "View" scrolls to the run.
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  for (const name of ['IRCoT', 'Question decomposition']) await page.getByRole('group', { name: 'Baselines' }).getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run batch' }).click();
  const perQuestion = page.getByRole('table', { name: 'Per-question results' });
  await expect(perQuestion.getByRole('row')).toHaveCount(5);
  await expect(perQuestion.getByRole('row').nth(1)).toContainText('Which harbour HHH');
  await expectNoSidewaysScroll(page, 'Deep search, batch');
  await page.getByRole('button', { name: 'View q2 hds' }).click();
  const view = page.getByRole('region', { name: 'Question run' });
  await expect(view).toBeFocused();
  await expect(view).toBeInViewport();
  await expectNoSidewaysScroll(page, 'Deep search, batch question run');

  await page.getByRole('button', { name: 'Saved runs' }).click();
  await expect(page.getByTestId('saved-run')).not.toHaveCount(0);
  await expectNoSidewaysScroll(page, 'Deep search, saved runs');
});
