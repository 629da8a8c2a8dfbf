// The leaderboard: pipelines × corpora from the saved runs of two corpora, the best per column, CSV and Markdown.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { loadSample } from './support.ts';

const tinyBeir = path.join(import.meta.dirname, 'fixtures', 'tiny-beir');
const SAMPLE = 'Meridian Coast (sample)';

async function bm25Run(page: Page, name: string, k1: string, b: string) {
  await page.getByLabel('BM25 k1', { exact: true }).fill(k1);
  await page.getByLabel('BM25 b', { exact: true }).fill(b);
  await page.getByLabel('Run name').fill(name);
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(`Saved “${name}”`);
}

/** A run's value of a measure as the Runs page shows it. */
async function runsValue(page: Page, runName: string, measure: string): Promise<string> {
  const row = page.getByTestId('run-row').filter({ has: page.getByRole('button', { name: runName, exact: true }) });
  const text = (await row.locator(`td[data-measure="${measure}"]`).textContent())!.trim();
  expect(text).toMatch(/^\d\.\d{4}$/);
  return text;
}

async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

test('pipelines × corpora: each cell is the run’s value in Runs, the best per corpus is marked, missing cells read “—”, exports as CSV and Markdown', async ({ page }) => {
  // Two BM25 configurations on the sample, one on a second corpus.
  await loadSample(page);
  await page.goto('/#/corpora');
  await page.getByLabel('Choose a folder').setInputFiles(tinyBeir);
  await page.getByLabel('Corpus name').fill('Mills');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Mills”');

  await page.goto('/#/runs');
  await page.getByLabel('Corpus').selectOption({ label: SAMPLE });
  await bm25Run(page, 'Okapi on the sample', '0.9', '0.4');
  await bm25Run(page, 'Tuned on the sample', '1.2', '0.75');
  const sample = {
    okapi: await runsValue(page, 'Okapi on the sample', 'nDCG@10'),
    tuned: await runsValue(page, 'Tuned on the sample', 'nDCG@10'),
    okapiRecall: await runsValue(page, 'Okapi on the sample', 'R@100'),
  };
  await page.getByLabel('Corpus').selectOption({ label: 'Mills' });
  await bm25Run(page, 'Okapi on Mills', '0.9', '0.4');
  const mills = await runsValue(page, 'Okapi on Mills', 'nDCG@10');
  const millsRecall = await runsValue(page, 'Okapi on Mills', 'R@100');

  await page.getByRole('link', { name: 'Leaderboard' }).click();
  const table = page.getByRole('table', { name: 'Leaderboard table nDCG@10' });
  await expect(table).toBeVisible();
  // Corpora in the corpus list's order (newest first).
  await expect(table.locator('thead th')).toHaveText(['Pipeline', 'Mills', SAMPLE]);
  const rows = table.getByTestId('leaderboard-row');
  await expect(rows).toHaveCount(2);
  const okapi = rows.filter({ hasText: 'BM25 k1=0.9 b=0.4' });
  const tuned = rows.filter({ hasText: 'BM25 k1=1.2 b=0.75' });
  await expect(okapi.locator(`td[data-corpus="${SAMPLE}"] .value`)).toHaveText(sample.okapi);
  await expect(okapi.locator('td[data-corpus="Mills"] .value')).toHaveText(mills);
  await expect(tuned.locator(`td[data-corpus="${SAMPLE}"] .value`)).toHaveText(sample.tuned);
  await expect(tuned.locator('td[data-corpus="Mills"]')).toHaveText('—');
  // The best of each column carries the mark (both when they tie at 4 decimals the exact values decide).
  const best = Number(sample.okapi) >= Number(sample.tuned) ? okapi : tuned;
  const other = best === okapi ? tuned : okapi;
  await expect(best.locator(`td[data-corpus="${SAMPLE}"]`)).toHaveClass(/best/);
  await expect(best.locator(`td[data-corpus="${SAMPLE}"]`).getByLabel('best on this corpus')).toHaveText('★');
  if (sample.okapi !== sample.tuned) await expect(other.locator(`td[data-corpus="${SAMPLE}"]`)).not.toHaveClass(/best/);
  await expect(okapi.locator('td[data-corpus="Mills"]')).toHaveClass(/best/);
  // Rows covering more corpora come first.
  await expect(rows.first()).toContainText('BM25 k1=0.9 b=0.4');

  // A second measure by its trec_eval name, also offered among the measures the runs carry.
  await expect(page.getByRole('group', { name: 'Measures in the runs' }).getByLabel('R@100')).not.toBeChecked();
  await page.getByLabel('Leaderboard measures').fill('ndcg_cut_10, recall_100');
  const recall = page.getByRole('table', { name: 'Leaderboard table R@100' });
  await expect(recall).toBeVisible();
  await expect(page.getByRole('group', { name: 'Measures in the runs' }).getByLabel('R@100')).toBeChecked();
  const recallOkapi = recall.getByTestId('leaderboard-row').filter({ hasText: 'BM25 k1=0.9 b=0.4' });
  await expect(recallOkapi.locator(`td[data-corpus="${SAMPLE}"] .value`)).toHaveText(sample.okapiRecall);
  await expect(recallOkapi.locator('td[data-corpus="Mills"] .value')).toHaveText(millsRecall);
  await page.getByLabel('Leaderboard measures').fill('bpref');
  await expect(page.getByRole('alert')).toContainText("unknown measure 'bpref'");
  await page.getByLabel('Leaderboard measures').fill('ndcg_cut_10, recall_100');

  // Exports: text with the same values, nothing but names and numbers.
  const csv = await downloadText(page, () => page.getByRole('button', { name: 'Download CSV' }).click());
  expect(csv.name).toBe('leaderboard.csv');
  const lines = csv.text.split('\r\n');
  expect(lines[0]).toBe(`measure,pipeline,Mills,${SAMPLE}`);
  const okapiLine = lines.find((l) => l.startsWith('nDCG@10,BM25 k1=0.9 b=0.4,'))!.split(',');
  expect(Number(okapiLine[2]).toFixed(4)).toBe(mills);
  expect(Number(okapiLine[3]).toFixed(4)).toBe(sample.okapi);
  expect(lines.find((l) => l.startsWith('nDCG@10,BM25 k1=1.2 b=0.75,'))).toMatch(/^nDCG@10,BM25 k1=1\.2 b=0\.75,,0\.\d+$/);
  expect(lines.filter((l) => l.startsWith('R@100,'))).toHaveLength(2);
  const md = await downloadText(page, () => page.getByRole('button', { name: 'Download Markdown' }).click());
  expect(md.name).toBe('leaderboard.md');
  expect(md.text).toContain(`| nDCG@10 | Mills | ${SAMPLE} |`);
  expect(md.text).toMatch(new RegExp(`\\| BM25 k1=1\\.2 b=0\\.75 \\| — \\| (\\*\\*)?${sample.tuned.replace('.', '\\.')}(\\*\\*)? \\|`));
  expect(md.text).toContain('### R@100');

  // A run deleted on the Runs page leaves its cell empty.
  await page.goto('/#/runs');
  await page.getByLabel('Corpus').selectOption({ label: 'Mills' });
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('run-row').filter({ hasText: 'Okapi on Mills' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(0);
  await page.getByRole('link', { name: 'Leaderboard' }).click();
  await expect(page.getByRole('table', { name: 'Leaderboard table nDCG@10' }).locator('thead th')).toHaveText(['Pipeline', SAMPLE]);
});
