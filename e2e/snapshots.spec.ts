import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loadAndEmbedSample, storedDocumentCount, tinyModelFolder } from './support.ts';

async function resultIds(page: Page, pipeline: 'bm25' | 'dense', query: string): Promise<string[]> {
  await page.goto('/#/search');
  await page.getByLabel('Pipeline', { exact: true }).selectOption(pipeline);
  await page.getByLabel('Query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
  await expect(results).toHaveCount(10, { timeout: 60_000 });
  return results.allTextContents();
}

const QUERY = 'lighthouse keeper rescues shipwrecked sailors in a storm';

test('a corpus snapshot moves documents, qrels, the BM25 index and the vectors to a fresh browser: same results, no re-embedding', async ({ page, browser }) => {
  test.setTimeout(420_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-snapshot-'));
  await loadAndEmbedSample(page, { embedTimeout: 180_000 });
  const bm25 = await resultIds(page, 'bm25', QUERY);
  const dense = await resultIds(page, 'dense', QUERY);

  await page.goto('/#/corpora');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export snapshot' }).click()]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  await expect(page.getByTestId('snapshot-result')).toContainText('Exported “Meridian Coast (sample)” as a snapshot');

  // A damaged copy is refused and stores nothing.
  const bytes = fs.readFileSync(file);
  const damaged = path.join(dir, 'damaged.dsw-snapshot');
  fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto('/#/corpora');
  await other.getByLabel('Import a corpus snapshot').setInputFiles(damaged);
  await expect(other.getByTestId('snapshot-result')).toContainText(/The snapshot is (truncated|damaged).*Nothing was stored\./);
  expect(await storedDocumentCount(other)).toBe(0);

  // The whole file imports; the model folder is kept (queries need the model) but nothing is embedded.
  await other.getByLabel('Import a corpus snapshot').setInputFiles(file);
  await expect(other.getByTestId('snapshot-result')).toContainText('Imported “Meridian Coast (sample)”: 168 documents', { timeout: 60_000 });
  await expect(other.getByTestId('snapshot-result')).toContainText('1 embedding set(s)');
  expect(await storedDocumentCount(other)).toBe(168);
  await other.goto('/#/embeddings');
  await expect(other.getByTestId('embedding-set')).toContainText('168 ✓');
  await other.getByRole('radio', { name: 'A folder on this computer (offline)' }).check();
  await other.getByLabel('Choose a model folder').setInputFiles(tinyModelFolder);
  await expect(other.getByLabel('Kept model folder')).toHaveValue('tiny-bert');
  expect(await resultIds(other, 'bm25', QUERY)).toEqual(bm25);
  expect(await resultIds(other, 'dense', QUERY)).toEqual(dense);
  await expect(other.getByTestId('search-stats')).toContainText('168 vectors of tiny-bert restored from storage');
  await fresh.close();
});
