// Why a sweep's BM25 baseline and a Runs-page BM25 run score differently at nDCG@10 on the sample, said where shown.
import { expect, test } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

test('the sweep says its rankings are cut at top k; its BM25 line scores as a Runs-page BM25 run at that k', async ({ page }) => {
  await loadAndEmbedSample(page);
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1');
  await page.getByLabel('Sweep name').fill('Cut sweep');
  await page.getByRole('button', { name: /^Run sweep: 4 grid points/ }).click();
  await expect(page.getByTestId('sweep-summary')).toContainText('top 10');
  await expect(page.getByTestId('sweep-cut-note')).toContainText('Every line and point here is a ranking cut at top 10, taken from child lists of 20 per child');
  await expect(page.getByTestId('sweep-cut-note')).toContainText('trec_eval orders tied scores by document id');

  await page.goto('/#/runs');
  await expect(page.getByTestId('run-group-cut')).toContainText('ranked at top 10, so @10 measures can differ a little from runs at a larger k');
  const sweepBm25 = (await page.getByTestId('run-row').filter({ hasText: 'Cut sweep · complementary only' }).locator('td[data-measure="nDCG@10"]').textContent())!;

  // BM25 at k 10 and at k 1000 on the Runs page.
  const scores: Record<string, string> = {};
  for (const k of ['10', '1000']) {
    await page.getByLabel('Results per query (k)').fill(k);
    await page.getByLabel('Run name').fill(`BM25 k ${k}`);
    await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
    await expect(page.getByTestId('run-done')).toContainText(`Saved “BM25 k ${k}”`);
    scores[k] = (await page.getByTestId('run-row').filter({ hasText: `BM25 k ${k}` }).locator('td[data-measure="nDCG@10"]').textContent())!;
  }
  expect(sweepBm25).toBe(scores['10']);
  // On the sample one query's 10th and 11th BM25 documents tie: cut at 10 it scores lower.
  expect(Number(scores['1000'])).toBeGreaterThan(Number(scores['10']));
});
