// The GQR chart's best point tested against RRF and the best convex combination, checked against the Compare page.
import { expect, test } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

test('the best grid point’s p-values against RRF and best CC are the Compare page’s, Holm-adjusted over the two', async ({ page }) => {
  await loadAndEmbedSample(page, { embedTimeout: 240_000 });
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1');
  await page.getByLabel('Sweep name').fill('Alpha sweep');
  await page.getByRole('button', { name: /^Run sweep: 4 grid points/ }).click();
  await expect(page.getByTestId('sweep-summary')).toBeVisible({ timeout: 240_000 });
  await expect(page.getByLabel('Chart measure')).toHaveValue('nDCG@10');

  const panel = page.getByTestId('best-point-test');
  await expect(panel).toBeVisible();
  const heading = (await panel.getByRole('heading').textContent())!;
  const match = /^Is the best point better\? GQR (.+) \(nDCG@10 (\d\.\d{4})\)$/.exec(heading);
  expect(match, heading).not.toBeNull();
  const [, pointLabel, bestValue] = match!;
  // The best point is the ★ row of the wins table, with the same value.
  const starred = page.getByRole('table', { name: 'Wins, ties and losses against the primary' }).getByRole('row').filter({ hasText: '★' });
  await expect(starred).toContainText(pointLabel!);
  await expect(starred.locator('td').nth(1)).toHaveText(bestValue!);

  const rrfRow = panel.locator('[data-testid="best-point-row"][data-baseline="rrf"]');
  const ccRow = panel.locator('[data-testid="best-point-row"][data-baseline="cc"]');
  await expect(rrfRow).toContainText('RRF k=60');
  const ccWeight = /best CC \(w=([\d.]+)\)/.exec((await ccRow.locator('td').first().textContent())!)![1]!;
  const shown = async (row: typeof rrfRow) => ({
    p: (await row.getByTestId('raw-p').textContent())!,
    holm: (await row.getByTestId('holm-p').textContent())!,
    verdict: (await row.getByTestId('holm-verdict').textContent())!,
  });
  const rrf = await shown(rrfRow);
  const cc = await shown(ccRow);
  // Holm over two tests: the smaller p doubled, the larger kept at least at that.
  const [pr, pc] = [Number(rrf.p), Number(cc.p)];
  const low = Math.min(1, 2 * Math.min(pr, pc));
  const high = Math.max(low, Math.max(pr, pc));
  const holm = pr <= pc ? [low, high] : [high, low];
  // Shown to 4 decimals: the adjusted value of the rounded p may differ by one unit in the last place.
  expect(Math.abs(Number(rrf.holm) - holm[0]!)).toBeLessThanOrEqual(0.00011);
  expect(Math.abs(Number(cc.holm) - holm[1]!)).toBeLessThanOrEqual(0.00011);
  expect(rrf.verdict).toBe(Number(rrf.holm) <= 0.05 ? 'significant' : 'not significant');
  expect(cc.verdict).toBe(Number(cc.holm) <= 0.05 ? 'significant' : 'not significant');

  // The same test on the Compare page: the best point as the baseline, RRF and the best CC run ticked
  // (the sign-flip test gives the same p whichever side is the baseline).
  await page.goto('/#/compare');
  const baseline = page.getByLabel('Baseline', { exact: true });
  const option = baseline.locator('option', { hasText: `Alpha sweep · GQR ${pointLabel} — ` });
  await expect(option).toHaveCount(1);
  await baseline.selectOption((await option.getAttribute('value'))!);
  const picker = page.getByRole('group', { name: 'Runs to compare' });
  const untick = picker.getByRole('button', { name: 'Untick all' });
  if (await untick.isVisible()) await untick.click();
  await picker.getByRole('checkbox', { name: 'Alpha sweep · RRF k=60' }).check();
  await picker.getByRole('checkbox', { name: `Alpha sweep · best CC w=${ccWeight} (by nDCG@10)` }).check();
  await page.getByLabel('Measures').fill('nDCG@10');
  await page.getByRole('button', { name: 'Compare 2 run(s) with the baseline' }).click();

  const rows = page.getByRole('table', { name: 'Comparison table' }).getByTestId('comparison-row');
  await expect(rows).toHaveCount(2);
  const compareP = async (name: RegExp) => (await rows.filter({ hasText: name }).getByTestId('p-value').textContent())!;
  expect(await compareP(/RRF k=60/)).toBe(rrf.p);
  expect(await compareP(/best CC/)).toBe(cc.p);
  const holmRows = page.getByRole('region', { name: 'Multiple-testing correction' }).getByTestId('holm-row');
  expect(await holmRows.filter({ hasText: 'RRF k=60' }).getByTestId('holm-p').textContent()).toBe(rrf.holm);
  expect(await holmRows.filter({ hasText: 'best CC' }).getByTestId('holm-p').textContent()).toBe(cc.holm);
});
