// The runs, compare and deep-search batch tables at 1,280 and 1,920 px: no word of a cell is split over two lines,
// every number stays on one line, and at 1,920 px each table fits its box. Screenshots are kept as artifacts.
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest } from '../src/test-support/openai-test-server.ts';
import { loadSample } from './support.ts';

const WIDTHS = [1280, 1920] as const;

/**
 * The words of the table's cells that sit on more than one line (each word measured with a Range over its text),
 * and the number cells whose text takes more than one line.
 */
function splitWords(table: Element): string[] {
  const lines = (rects: DOMRect[]) => {
    const tops = rects.filter((r) => r.width > 0 && r.height > 0).map((r) => r.top).sort((a, b) => a - b);
    let count = 0;
    let last = -Infinity;
    for (const top of tops) {
      if (top - last > 6) count++;
      last = top;
    }
    return count;
  };
  const problems: string[] = [];
  for (const cell of table.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (lines([...range.getClientRects()]) > 1) problems.push(`word “${match[0]}” in “${cell.textContent?.slice(0, 80)}”`);
      }
    }
    if (cell.matches('td.num') && cell.textContent?.trim()) {
      const range = document.createRange();
      range.selectNodeContents(cell);
      if (lines([...range.getClientRects()]) > 1) problems.push(`number “${cell.textContent}” on several lines`);
    }
  }
  return problems;
}

/** The table's box scrolls sideways by this many pixels. */
function sidewaysOverflow(table: Element): number {
  const box = table.closest('.table-scroll') ?? table.parentElement!;
  return box.scrollWidth - box.clientWidth;
}

async function expectWholeWords(page: Page, table: Locator, name: string, width: number, testInfo: TestInfo) {
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const shot = await table.screenshot();
  await testInfo.attach(`${name}-${width}px.png`, { body: shot, contentType: 'image/png' });
  await page.screenshot({ path: testInfo.outputPath(`${name}-${width}px-page.png`), fullPage: true });
  expect(await table.evaluate(splitWords), `${name} at ${width} px`).toEqual([]);
  if (width === 1920) expect(await table.evaluate(sidewaysOverflow), `${name} fits its box at ${width} px`).toBeLessThanOrEqual(0);
}

let server: OpenAiTestServer | undefined;
test.afterEach(async () => {
  await server?.close();
});

test('the check finds a word split over two lines', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => {
    const table = document.createElement('table');
    table.id = 'squeezed';
    table.innerHTML = '<tbody><tr><td style="width: 2rem; overflow-wrap: anywhere">Inspect</td><td class="num" style="width: 1rem; overflow-wrap: anywhere">0.7521</td></tr></tbody>';
    document.body.prepend(table);
  });
  const problems = await page.locator('#squeezed').evaluate(splitWords);
  expect(problems).toEqual([expect.stringContaining('word “Inspect”'), expect.stringContaining('word “0.7521”'), expect.stringContaining('number “0.7521”')]);
});

test('runs, compare and batch tables keep every word and number whole at 1,280 and 1,920 px', async ({ page }, testInfo) => {
  test.setTimeout(540_000);
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await loadSample(page);

  // Runs: two BM25 runs with several-word names.
  await page.goto('/#/runs');
  for (const [name, k1] of [
    ['BM25 baseline with the default parameters', '0.9'],
    ['BM25 tuned k1 for the coastal questions', '1.6'],
  ] as const) {
    await page.getByLabel('BM25 k1').fill(k1);
    await page.getByLabel('Run name').fill(name);
    await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
    await expect(page.getByTestId('run-done')).toContainText(`Saved “${name}”`);
  }
  const runs = page.getByRole('table', { name: 'Saved runs' });
  await expect(runs.getByTestId('run-row')).toHaveCount(2);
  // Sorting by a measure: a header click, told to assistive technology.
  await runs.getByRole('button', { name: 'nDCG@10', exact: true }).click();
  await expect(runs.getByRole('columnheader', { name: /^nDCG@10 ▼$/ })).toHaveAttribute('aria-sort', 'descending');
  const values = (await runs.locator('td[data-measure="nDCG@10"]').allTextContents()).map(Number);
  expect(values).toEqual([...values].sort((a, b) => b - a));
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectWholeWords(page, runs, 'runs', width, testInfo);
  }

  // Compare: the summary and the per-query table (filtered by a word of the queries).
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await page.goto('/#/compare');
  await page.getByRole('button', { name: /^Compare \d+ run\(s\) with the baseline$/ }).click();
  const summary = page.getByRole('table', { name: 'Comparison table' });
  const perQuery = page.getByRole('table', { name: 'Per-query table' });
  await expect(summary.getByTestId('comparison-row')).not.toHaveCount(0);
  const allQueries = await perQuery.getByTestId('per-query-row').count();
  expect(allQueries).toBeGreaterThan(10);
  await page.getByLabel('Filter queries').fill('lighthouse');
  await expect(page.getByTestId('table-filter-count')).toContainText(/^\d+ of \d+ rows$/);
  const filtered = await perQuery.getByTestId('per-query-row').count();
  expect(filtered).toBeLessThan(allQueries);
  for (const text of await perQuery.getByTestId('per-query-row').locator('td:nth-child(2)').allTextContents()) expect(text.toLowerCase()).toContain('lighthouse');
  await page.getByLabel('Filter queries').fill('');
  await expect(perQuery.getByTestId('per-query-row')).toHaveCount(allQueries);
  // A column's own filter box: a comparison on the Δ column, then a range on the baseline's values.
  const cells = async (column: number) =>
    (await perQuery.getByTestId('per-query-row').locator(`td:nth-child(${column})`).allTextContents()).map((t) => Number(t.replace('−', '-').replace('+', '')));
  await perQuery.getByLabel('Filter Δ').fill('> 0');
  await expect(page.getByTestId('table-filter-count')).toContainText(/^\d+ of \d+ rows$/);
  const gains = await cells(5);
  expect(gains.length).toBeGreaterThan(0);
  expect(gains.length).toBeLessThan(allQueries);
  for (const delta of gains) expect(delta).toBeGreaterThan(0);
  await perQuery.getByLabel('Filter Δ').fill('');
  await perQuery.getByLabel('Filter Baseline').fill('0.2..0.8');
  const middle = await cells(3);
  expect(middle.length).toBeLessThan(allQueries);
  for (const value of middle) expect(value >= 0.2 && value <= 0.8).toBe(true);
  await perQuery.getByLabel('Filter Baseline').fill('');
  await expect(perQuery.getByTestId('per-query-row')).toHaveCount(allQueries);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectWholeWords(page, summary, 'compare-summary', width, testInfo);
    await expectWholeWords(page, perQuery, 'compare-per-query', width, testInfo);
  }

  // Deep search: a batch of three questions, HDS and single-shot RAG, against a loopback OpenAI-protocol server.
  server = new OpenAiTestServer({
    respond: (request: RecordedRequest) => {
      const prompt = JSON.stringify(request.body?.messages ?? []);
      if (prompt.includes('Harrow Point lighthouse')) return { content: '\\boxed{Margery Fennick}' };
      return { content: 'I believe the answer is the Saltmere harbour office, as far as I can tell.' };
    },
  });
  const baseUrl = await server.start();
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByLabel('Number of questions').fill('3');
  for (const name of ['IRCoT', 'Question decomposition']) await page.getByRole('group', { name: 'Baselines' }).getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run batch' }).click();
  await expect(page.getByRole('heading', { name: /completed/ })).toBeVisible({ timeout: 120_000 });
  const perQuestion = page.getByRole('table', { name: 'Per-question results' });
  await expect(perQuestion.getByRole('row')).toHaveCount(7);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectWholeWords(page, perQuestion, 'hds-batch-per-question', width, testInfo);
  }
});
