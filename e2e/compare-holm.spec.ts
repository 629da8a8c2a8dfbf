// Compare with several runs and measures against one baseline: Holm-adjusted p-values beside the raw ones.
import { expect, test, type Page } from '@playwright/test';
import { loadSample } from './support.ts';

async function bm25Run(page: Page, name: string, k1: string, b: string) {
  await page.getByLabel('BM25 k1', { exact: true }).fill(k1);
  await page.getByLabel('BM25 b', { exact: true }).fill(b);
  await page.getByLabel('Run name').fill(name);
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(`Saved “${name}”`);
}

/** Holm's step-down adjustment, written out here from the p-values the page shows. */
function holm(p: number[]): number[] {
  const order = p.map((value, i) => ({ value, i })).sort((a, b) => a.value - b.value || a.i - b.i);
  const out = new Array<number>(p.length);
  let running = 0;
  order.forEach(({ value, i }, rank) => {
    running = Math.max(running, Math.min(1, (p.length - rank) * value));
    out[i] = running;
  });
  return out;
}

test('two runs × two measures against one baseline: the Holm p-values follow from the raw ones and say what stays significant', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/runs');
  await bm25Run(page, 'BM25 baseline', '0.9', '0.4');
  await bm25Run(page, 'BM25 flat', '0.2', '0.1');
  await bm25Run(page, 'BM25 long', '2.5', '1');

  await page.goto('/#/compare');
  await page.getByLabel('Baseline', { exact: true }).selectOption({ label: 'BM25 baseline — BM25 k1=0.9 b=0.4' });
  const picker = page.getByRole('group', { name: 'Runs to compare' });
  await picker.getByLabel('Tick every run shown').check();
  await page.getByLabel('Measures').fill('ndcg_cut_10, map');
  // 9,999 permutations: every p-value, (extreme + 1) / 10,000, is shown exactly by its 4 decimals.
  await page.getByLabel('Permutations').fill('9999');
  await page.getByRole('button', { name: 'Compare 2 run(s) with the baseline' }).click();

  const comparisonP = page.getByRole('table', { name: 'Comparison table' }).getByTestId('p-value');
  await expect(comparisonP).toHaveCount(4);
  const panel = page.getByRole('region', { name: 'Multiple-testing correction' });
  await expect(panel.getByRole('heading')).toHaveText('Corrected for 4 tests (Holm–Bonferroni)');
  const rows = panel.getByTestId('holm-row');
  await expect(rows).toHaveCount(4);

  const raw = (await panel.getByTestId('raw-p').allTextContents()).map(Number);
  expect(raw).toEqual((await comparisonP.allTextContents()).map(Number));
  expect(raw.every((p) => p > 0 && p <= 1)).toBe(true);
  const expected = holm(raw);
  const shown = await panel.getByTestId('holm-p').allTextContents();
  expect(shown).toEqual(expected.map((p) => p.toFixed(4)));
  const verdicts = await panel.getByTestId('holm-verdict').allTextContents();
  expect(verdicts).toEqual(expected.map((p) => (p <= 0.05 ? 'significant' : 'not significant')));
  const kept = expected.filter((p) => p <= 0.05).length;
  await expect(panel.getByTestId('holm-summary')).toContainText(kept === 0 ? 'None' : `${kept} of 4`);
  // Rows name the run and the measure tested.
  await expect(rows.nth(0)).toContainText(/BM25 (flat|long)nDCG@10/);
  await expect(rows.nth(1)).toContainText(/BM25 (flat|long)AP/);
});
