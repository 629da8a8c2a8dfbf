// Compare after a sweep: GQR's best grid point against the primary-only run it refines, said under the picker.
import { expect, test } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

test('after a sweep, Compare pairs its best grid point with its primary-only run as the baseline', async ({ page }) => {
  await loadAndEmbedSample(page);
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1');
  await page.getByLabel('Sweep name').fill('Alpha sweep');
  await page.getByRole('button', { name: /^Run sweep: 4 grid points/ }).click();
  await expect(page.getByTestId('sweep-summary')).toBeVisible({ timeout: 60_000 });

  // The best point on nDCG@10, read from the Runs page.
  await page.goto('/#/runs');
  const points = page.getByTestId('run-row').filter({ hasText: /Alpha sweep · GQR α/ });
  await expect(points).toHaveCount(4);
  const scores: Array<{ name: string; value: number }> = [];
  for (const row of await points.all()) {
    const value = Number(await row.locator('td[data-measure="nDCG@10"]').textContent());
    scores.push({ name: (await row.getByTitle('Show the run’s details').textContent()) ?? '', value });
  }
  const top = Math.max(...scores.map((s) => s.value));
  // The list shows 4 decimals: any point shown at the top value may be the best one.
  const bestNames = scores.filter((s) => s.value === top).map((s) => s.name);

  await page.goto('/#/compare');
  const baseline = page.getByLabel('Baseline', { exact: true });
  await expect(baseline.locator('option:checked')).toHaveText(/Alpha sweep · primary only/);
  const note = page.getByTestId('compare-default');
  const escaped = bestNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  await expect(note).toContainText(new RegExp(`in the newest sweep “Alpha sweep”, its best grid point on nDCG@10 \\(“(${escaped})”\\)`));
  await expect(note).toContainText('compared with its primary-only run (“Alpha sweep · primary only”) as the baseline');
  await expect(page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' })).toBeVisible();
  await expect(note).not.toContainText('best CC');
});
