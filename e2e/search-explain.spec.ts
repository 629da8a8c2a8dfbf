// Search as the workbench for one query: why a result ranks where it does (per-term BM25, the dense score, the
// fusion arithmetic), the GQR inspector next to the clicked result, and the same query on Compare, the GQR lab and
// Deep search.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

const Q01 = 'lighthouse keeper rescues shipwrecked sailors in a storm';

/** The id and shown score of a result row ("m046 · score 3.1416"). */
async function idAndScore(row: Locator): Promise<{ id: string; score: number }> {
  const [id, score] = (await row.locator('.meta').first().textContent())!.split(' · score ');
  return { id: id!.trim(), score: Number(score) };
}

async function pickQ01(page: Page): Promise<Locator> {
  await page.goto('/#/search');
  await page.getByLabel('Pick from the set').selectOption('q01');
  await expect(page.getByLabel('Query', { exact: true })).toHaveValue(Q01);
  const results = page.getByRole('list', { name: 'Results' }).locator(':scope > li');
  await expect(results).toHaveCount(10);
  return results;
}

const numbers = async (cells: Locator) => (await cells.allTextContents()).map((t) => Number(/(-?[\d.]+)\s*$/.exec(t)![1]));

/**
 * Opens "why" on a fused result and reads its arithmetic's terms, which must add up to the score shown. The list may
 * still be replaced by the next pipeline's (often with the same document first, its "why" left open), so the row is
 * read before and after the terms, and everything is read again until both readings agree with the arithmetic.
 */
async function explainFused(row: Locator, marker: string): Promise<{ id: string; score: number; parts: number[] }> {
  let found = { id: '', score: Number.NaN, parts: [] as number[] };
  await expect(async () => {
    const before = await idAndScore(row);
    const button = row.getByRole('button', { name: `Why ${before.id} ranks here` });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    const arithmetic = row.getByRole('region', { name: `Why ${before.id} ranks here` }).getByTestId('fusion-arithmetic');
    await expect(arithmetic).toContainText(marker, { timeout: 3000 });
    await expect(arithmetic.locator('tbody tr')).toHaveCount(2, { timeout: 1000 });
    const parts = await numbers(arithmetic.locator('tbody td:last-child'));
    const after = await idAndScore(row);
    expect(after).toEqual(before);
    expect(Math.abs(parts.reduce((s, p) => s + p, 0) - after.score)).toBeLessThan(5e-5);
    found = { ...after, parts };
  }).toPass({ timeout: 60_000 });
  return found;
}

test('why a result ranks here (BM25 terms, RRF, convex and GQR arithmetic), the inspector beside it, and the query on other pages', async ({ page }) => {
  test.setTimeout(600_000);
  await loadAndEmbedSample(page, { embedTimeout: 240_000 });
  // A small sweep, so Compare has runs and the GQR lab a sweep to inspect in.
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1');
  await page.getByLabel('Sweep name').fill('Explain sweep');
  await page.getByRole('button', { name: /^Run sweep: 4 grid points/ }).click();
  await expect(page.getByTestId('sweep-summary')).toBeVisible({ timeout: 240_000 });

  // BM25: the per-term contributions add up to the score shown.
  let results = await pickQ01(page);
  const third = results.nth(2);
  const shown = await idAndScore(third);
  await third.getByRole('button', { name: `Why ${shown.id} ranks here` }).click();
  const why = third.getByRole('region', { name: `Why ${shown.id} ranks here` });
  const terms = why.getByTestId('bm25-term');
  await expect(terms.first()).toBeVisible();
  const contributions = await numbers(why.getByTestId('bm25-contribution'));
  expect(contributions.length).toBeGreaterThan(1);
  const summed = contributions.reduce((s, c) => s + c, 0);
  expect(Math.abs(summed - shown.score)).toBeLessThan(5e-5 + contributions.length * 5e-7);
  expect(Number(await why.getByTestId('bm25-sum').textContent())).toBeCloseTo(shown.score, 4);
  await expect(why).toContainText('(the same number)');
  await expect(why.getByTestId('bm25-params')).toContainText(/k1 0\.9 · b 0\.4 · document length \d+ vs average [\d.]+ over 168 documents/);
  // Terms the document lacks contribute nothing; the table lists every query term the index knows.
  await expect(terms.filter({ hasText: 'lighthous' }).or(terms.filter({ hasText: 'lighthouse' }))).toHaveCount(1);

  // Hybrid (RRF of dense and BM25): 1/(k + rank) per list, the dense cosine, BM25's terms below.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('rrf');
  await expect(page.getByLabel('Pipeline 1')).toHaveValue(/^dense:/);
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert');
  results = page.getByRole('list', { name: 'Results' }).locator(':scope > li');
  await expect(results).toHaveCount(10);
  const first = results.first();
  const rrf = await explainFused(first, '1/(60 + ');
  const fusedWhy = first.getByRole('region', { name: `Why ${rrf.id} ranks here` });
  expect(rrf.parts.length).toBe(2);
  expect(Number(await fusedWhy.getByTestId('fusion-sum').textContent())).toBeCloseTo(rrf.score, 4);
  await expect(fusedWhy.getByTestId('dense-score')).toContainText(/Cosine .* tiny-bert.*: -?0\.\d{6}/);
  await expect(fusedWhy.getByTestId('bm25-term').first()).toBeVisible();

  // Convex combination: normalised score × weight per list.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('cc');
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert');
  results = page.getByRole('list', { name: 'Results' }).locator(':scope > li');
  const ccFirst = results.first();
  await expect(ccFirst.getByRole('button', { name: /^Why .* ranks here$/ })).toBeVisible();
  const cc = await explainFused(ccFirst, 'convex combination');
  expect(cc.parts.length).toBe(2);

  // GQR: the inspector opens inside the clicked result, within the viewport, right under the result's title.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('gqr');
  results = page.getByRole('list', { name: 'Results' }).locator(':scope > li');
  await expect(page.getByTestId('search-stats')).toContainText('GQR pool');
  const eighth = results.nth(7);
  let gqr = await idAndScore(eighth);
  await eighth.getByRole('button', { name: 'Inspect refinement' }).click();
  const inspector = eighth.getByRole('region', { name: 'Query inspector' });
  // The row is read again until the GQR list has replaced the convex one it may still show.
  await expect(async () => {
    gqr = await idAndScore(eighth);
    await expect(inspector.getByRole('heading')).toHaveText(`How GQR refined “${Q01}” — ${gqr.id} is result 8`, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  const viewport = page.viewportSize()!;
  const title = (await eighth.getByRole('button').first().boundingBox())!;
  const box = (await inspector.boundingBox())!;
  expect(title.y).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThan(title.y);
  expect(box.y).toBeLessThan(viewport.height);
  expect(box.y - (title.y + title.height)).toBeLessThan(viewport.height / 2);
  // …and GQR's own pieces for the result: the final score is the one shown.
  await eighth.getByRole('button', { name: `Why ${gqr.id} ranks here` }).click();
  const gqrWhy = eighth.getByRole('region', { name: `Why ${gqr.id} ranks here` });
  await expect(gqrWhy.getByTestId('gqr-pieces')).toContainText('score before → after refinement');
  await expect(gqrWhy).toContainText('(the same number)');

  // The same query on Compare: its rankings open once the runs are compared.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('bm25');
  await pickQ01(page);
  const elsewhere = page.getByRole('navigation', { name: 'Open on other pages' });
  await elsewhere.getByRole('link', { name: 'Compare' }).click();
  await expect(page).toHaveURL(/#\/compare\?query=q01$/);
  await expect(page.getByTestId('linked-query')).toContainText(`Query q01: “${Q01}”`);
  await page.getByRole('button', { name: /^Compare 1 run\(s\) with the baseline/ }).click();
  const sideBySide = page.getByRole('region', { name: 'Rankings side by side' });
  await expect(sideBySide.getByRole('heading', { level: 2 })).toHaveText(`Query q01: ${Q01}`);

  // In the GQR inspector: the newest sweep opens with q01 inspected at its best point.
  await pickQ01(page);
  await elsewhere.getByRole('link', { name: 'GQR inspector' }).click();
  await expect(page).toHaveURL(/#\/gqr\?query=q01&text=/);
  await expect(page.getByRole('region', { name: 'Sweep results' }).getByRole('heading', { name: 'Explain sweep' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Query inspector' }).getByRole('heading').first()).toContainText(`Query q01: “${Q01}” at `);

  // In Deep search: the question box holds the query.
  await pickQ01(page);
  await elsewhere.getByRole('link', { name: 'Deep search' }).click();
  await expect(page).toHaveURL(/#\/hds\?question=/);
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(Q01);
});
