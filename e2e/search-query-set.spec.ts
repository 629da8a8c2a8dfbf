// Search as the workbench for one query of the set: pick it, see how each result is judged and the query's measures.
import { expect, test } from '@playwright/test';
import { loadSample } from './support.ts';

test('a query picked from the set is searched, its results carry their judgements, and its measures are shown', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/search');
  await page.getByLabel('Pick from the set').selectOption('q01');
  await expect(page.getByLabel('Query', { exact: true })).toHaveValue('lighthouse keeper rescues shipwrecked sailors in a storm');
  const results = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
  await expect(results).toHaveCount(10);

  // m046 is judged relevant with grade 2 for q01 (sample qrels); every result has a mark.
  await expect(results.filter({ hasText: 'm046' }).getByTestId('qrel-mark')).toHaveText('✓ relevant (2)');
  await expect(page.getByTestId('qrel-mark')).toHaveCount(10);
  const relevantShown = await page.getByTestId('qrel-mark').filter({ hasText: '✓ relevant' }).count();
  const metrics = page.getByTestId('query-metrics');
  await expect(metrics).toContainText(/^q01 on these 10 results: nDCG@10 [01]\.\d{4} · RR [01]\.\d{4} · P@10 [01]\.\d{4} · AP [01]\.\d{4}/);
  await expect(metrics).toContainText(`${relevantShown} of 4 relevant document(s) shown (top 10)`);
  // P@10 is the share of relevant results among the ten shown.
  const p10 = Number(/P@10 ([\d.]+)/.exec((await metrics.textContent())!)![1]);
  expect(p10).toBeCloseTo(relevantShown / 10, 4);

  // Typing the same text is the same query of the set; other text has no judgements to show.
  await page.getByLabel('Pick from the set').selectOption('');
  await page.getByLabel('Query', { exact: true }).fill('salt marshes');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('query-metrics')).toHaveCount(0);
  await expect(page.getByTestId('qrel-mark')).toHaveCount(0);
  await page.getByLabel('Query', { exact: true }).fill('history of the tea trade in Port Avel');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByLabel('Pick from the set')).toHaveValue('q02');
  await expect(page.getByTestId('query-metrics')).toContainText('q02 on these');
  await expect(page.getByTestId('search-empty')).toHaveCount(0);

  // A top k out of range is said in words; the list stays the last search's.
  const topK = page.getByLabel('Top k');
  await topK.fill('0');
  await expect(page.getByTestId('search-field-problems')).toHaveText("top k: enter a number from 1 to 100000 (the results below are the last search's, top 10).");
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(10);
  await topK.fill('10');
  await expect(page.getByTestId('search-field-problems')).toHaveCount(0);

  // A query none of whose words the index holds says why the list is empty.
  await page.getByLabel('Query', { exact: true }).fill('zzzqqq the');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-stats')).toContainText('0 result(s)');
  await expect(page.getByTestId('search-empty')).toContainText('No document contains any word of this query');
});

test('at 1,280 px the pages fit on one line and the query box takes most of the search row', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loadSample(page);
  await page.goto('/#/search');
  await expect(page.getByLabel('Pick from the set')).toBeVisible();
  const tops = await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(8);
  expect(new Set(tops).size).toBe(1);
  // (the picker's options are whole queries: unbounded, it took the row and left the box a third of it)
  const box = (await page.getByLabel('Query', { exact: true }).boundingBox())!;
  const picker = (await page.getByLabel('Pick from the set').boundingBox())!;
  expect(box.width).toBeGreaterThan(picker.width);
  expect(Math.abs(box.y - picker.y)).toBeLessThan(20);
});
