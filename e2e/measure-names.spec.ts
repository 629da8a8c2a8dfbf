// trec_eval, ranx and ir_measures names typed where measures are asked for: read as the same measures.
import { expect, test } from '@playwright/test';
import { loadSample } from './support.ts';

test('a run scored with trec_eval names shows them under the ir_measures names, with the same values', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/runs');
  await expect(page.getByLabel('Corpus')).toHaveValue(/.+/);
  const measures = page.getByLabel('Measures');

  // A name no tool knows is refused with the spellings that work.
  await measures.fill('bpref');
  await expect(page.getByRole('alert')).toContainText("unknown measure 'bpref'");
  await expect(page.getByRole('alert')).toContainText('ndcg_cut_10, recall_100, P_5, map, recip_rank');

  await measures.fill('ndcg_cut_10, recall_100, P_5, map, recip_rank');
  await expect(measures).toHaveAttribute('aria-invalid', 'false');
  await page.getByLabel('Run name').fill('trec_eval names');
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(/Saved “trec_eval names”: \d+ queries .* · nDCG@10 0\.\d{4}/);
  const trecRow = page.getByTestId('run-row').filter({ hasText: 'trec_eval names' });
  for (const name of ['nDCG@10', 'R@100', 'P@5', 'AP', 'RR']) await expect(trecRow.locator(`td[data-measure="${name}"]`)).toHaveText(/^[01]\.\d{4}$/);

  // The same BM25 run scored with ir_measures and ranx names gives the same values.
  await measures.fill('nDCG@10, recall@100, precision@5, MAP, mrr');
  await page.getByLabel('Run name').fill('ranx names');
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText('Saved “ranx names”');
  const ranxRow = page.getByTestId('run-row').filter({ hasText: 'ranx names' });
  for (const name of ['nDCG@10', 'R@100', 'P@5', 'AP', 'RR']) {
    await expect(ranxRow.locator(`td[data-measure="${name}"]`)).toHaveText((await trecRow.locator(`td[data-measure="${name}"]`).textContent())!);
  }
});

test('Compare takes trec_eval names as well', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/runs');
  for (const name of ['BM25 one', 'BM25 two']) {
    await page.getByLabel('Run name').fill(name);
    await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
    await expect(page.getByTestId('run-done')).toContainText(`Saved “${name}”`);
  }
  await page.goto('/#/compare');
  await page.getByLabel('Measures').fill('ndcg_cut.10, map');
  await page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' }).click();
  const table = page.getByRole('table').first();
  await expect(table).toContainText('nDCG@10');
  await expect(table).toContainText('AP');
});
