import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

test('a small sweep is one group of runs: filtered, range-selected, bulk-deleted with one confirmation; a re-imported run is marked', async ({ page }) => {
  await loadAndEmbedSample(page);

  // A 2 × 2 sweep with a fixed pool of 40 documents per child (8 runs: 4 points, 4 baselines).
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 1');
  await page.getByLabel('Fixed poolSize').fill('40');
  await expect(page.getByRole('region', { name: 'New sweep' }).getByTestId('gqr-pool')).toHaveText('Pool: 40 per child (fixed pool size), up to 80 candidates');
  await page.getByLabel('Sweep name').fill('Small sweep');
  await page.getByRole('button', { name: /^Run sweep: 4 grid points × 54 queries/ }).click();
  await expect(page.getByTestId('sweep-summary')).toContainText('pool 40 per child (fixed pool size)');

  await page.goto('/#/runs');
  const groups = page.getByTestId('run-group');
  await expect(groups).toHaveCount(1);
  const sweepGroup = groups.filter({ hasText: 'Sweep “Small sweep”' });
  await expect(sweepGroup.getByTestId('run-group-count')).toHaveText('8 runs');
  await expect(sweepGroup.getByTestId('run-row')).toHaveCount(8);
  const pointRow = sweepGroup.getByTestId('run-row').filter({ hasText: 'Small sweep · GQR α 1 · target per-step' });
  await expect(pointRow.getByTestId('run-pool')).toHaveText('· pool 40 per child, fixed');
  const labValue = (await pointRow.locator('td[data-measure="nDCG@10"]').textContent())!;

  // The same settings on the Runs page at k 100 with the same pool score what the lab scored at top 10.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Results per query (k)').fill('100');
  await expect(page.getByRole('region', { name: 'New run' }).getByTestId('gqr-pool')).toHaveText('Pool: 200 per child (top k 100 × 2), up to 400 candidates');
  await page.getByLabel('GQR mixtureAlpha').fill('1');
  await page.getByLabel('GQR pool size').fill('40');
  await expect(page.getByRole('region', { name: 'New run' }).getByTestId('gqr-pool')).toHaveText('Pool: 40 per child (fixed pool size), up to 80 candidates');
  await page.getByLabel('Run name').fill('GQR pool 40 at k 100');
  await page.getByRole('button', { name: /^Run over 54 queries/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(`Saved “GQR pool 40 at k 100”: 54 queries`);
  await expect(page.getByTestId('run-done')).toContainText(`nDCG@10 ${labValue}`);
  await expect(groups).toHaveCount(2);
  await expect(groups.filter({ hasText: 'Single runs' }).getByTestId('run-row')).toHaveCount(1);

  // Collapsing hides a group's runs, not its header.
  await sweepGroup.getByRole('button', { name: /Sweep “Small sweep”/ }).click();
  await expect(sweepGroup.getByTestId('run-row')).toHaveCount(0);
  await sweepGroup.getByRole('button', { name: /Sweep “Small sweep”/ }).click();
  await expect(sweepGroup.getByTestId('run-row')).toHaveCount(8);

  // The filter: GQR runs only (the 4 grid points and the run), then a word.
  await page.getByLabel('Filter saved runs').fill('kind:gqr');
  await expect(page.getByTestId('run-filter-count')).toHaveText('5 of 9 runs');
  await expect(sweepGroup.getByTestId('run-group-count')).toHaveText('4 of 8 runs shown');
  await page.getByLabel('Filter saved runs').fill('kind:gqr fixed');
  await expect(page.getByTestId('run-filter-count')).toHaveText('2 of 9 runs');
  await page.getByLabel('Filter saved runs').fill('after:2026-13-40');
  await expect(page.getByRole('alert')).toContainText('after:2026-13-40 is not a date (write YYYY-MM-DD)');
  await page.getByLabel('Filter saved runs').fill('');

  // Shift-click selects a range; the group checkbox selects the whole sweep.
  const sweepRows = sweepGroup.getByTestId('run-row');
  await sweepRows.nth(0).getByRole('checkbox').click();
  await sweepRows.nth(2).getByRole('checkbox').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selected-count')).toHaveText('3 selected');
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.getByLabel('Select every run of “Small sweep”').check();
  await expect(page.getByTestId('selected-count')).toHaveText('8 selected');

  // One confirmation, one transaction: the sweep is gone, the single run stays.
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete 8 selected run(s)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 8 run(s).' })).toBeVisible();
  expect(dialogs).toEqual(['Delete 8 run(s), including the whole sweep “Small sweep”? This cannot be undone.']);
  await expect(groups).toHaveCount(1);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  await page.goto('/#/gqr');
  await expect(page.getByRole('region', { name: 'Saved sweeps' })).toHaveCount(0);

  // Export the run and import it again: the copy is marked, and the report says the run was already here.
  await page.goto('/#/runs');
  const row = page.getByTestId('run-row').first();
  const json = await downloadText(page, () => row.getByRole('button', { name: 'JSON' }).click());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-run-groups-'));
  fs.writeFileSync(path.join(dir, 'pool-run.json'), json.text);
  await page.getByLabel('Import a JSON run').setInputFiles(path.join(dir, 'pool-run.json'));
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('Imported “GQR pool 40 at k 100” from pool-run.json');
  await expect(report.getByTestId('already-here')).toContainText('“GQR pool 40 at k 100” is already here as “GQR pool 40 at k 100” (made here); imported again as a marked copy');
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  const marks = page.getByTestId('import-mark');
  await expect(marks).toHaveCount(1);
  await expect(marks).toContainText(/imported from pool-run\.json at \S+/);
  await page.getByLabel('Filter saved runs').fill('imported');
  await expect(page.getByTestId('run-filter-count')).toHaveText('1 of 2 runs');

  // Compare: nothing but the explained default is ticked; the picker groups and filters the same way.
  await page.goto('/#/compare');
  await expect(page.getByTestId('compare-default')).toContainText('Ticked at first: only the newest run');
  await expect(page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' })).toBeVisible();
  await expect(page.getByTestId('picker-group')).toHaveCount(1);
});

test('the Search page runs GQR, shows its pool, and opens the inspector from a result', async ({ page }) => {
  await loadAndEmbedSample(page);
  await page.goto('/#/search');
  await page.getByLabel('Pipeline', { exact: true }).selectOption('gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Query').fill('lighthouse keeper');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('search-stats')).toContainText('GQR pool 20 per child (top k 10 × 2), up to 40 candidates');
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(10);
  await page.getByLabel('GQR pool size').fill('30');
  await expect(page.getByTestId('search-stats')).toContainText('GQR pool 30 per child (fixed pool size), up to 60 candidates');

  const first = page.getByRole('list', { name: 'Results' }).getByRole('listitem').first();
  const firstId = (await first.locator('.meta').first().textContent())!.split(' · ')[0]!;
  await first.getByRole('button', { name: 'Inspect refinement' }).click();
  const inspector = page.getByRole('region', { name: 'Query inspector' });
  await expect(inspector).toBeVisible();
  await expect(inspector.getByRole('heading')).toHaveText(`How GQR refined “lighthouse keeper” — ${firstId} is result 1`);
  await expect(inspector.getByTestId('inspector-pool')).toHaveText('30 per child (fixed pool size), up to 60 candidates');
  await expect(inspector.getByTestId('inspector-path')).toContainText('single-vector cosine');
  await expect(inspector.getByRole('table', { name: 'Candidate pool' }).locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: 'Close the inspector' }).click();
  await expect(inspector).toHaveCount(0);

  // An inspector left open closes when another pipeline's list replaces the GQR one it explained.
  await first.getByRole('button', { name: 'Inspect refinement' }).click();
  await expect(inspector).toBeVisible();
  await page.getByLabel('Pipeline', { exact: true }).selectOption('bm25');
  await expect(page.getByTestId('search-stats')).not.toContainText('GQR pool');
  await expect(inspector).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Inspect refinement' })).toHaveCount(0);
});
