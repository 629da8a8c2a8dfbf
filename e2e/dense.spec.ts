import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

// The tiny BERT made by `npm run gen:model` (the build generates it): real inference in the browser worker.
const tinyModelFolder = path.join(import.meta.dirname, '..', 'public', 'models', 'tiny-bert');

async function loadSample(page: Page) {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
}

async function search(page: Page, query: string) {
  await page.getByLabel('Query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('the sample corpus is embedded with tiny-bert from a model folder, searched dense and hybrid, and still searchable after a reload', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'A folder on this computer (offline)' }).check();
  await page.getByLabel('Choose a model folder').setInputFiles(tinyModelFolder);
  await expect(page.getByLabel('Kept model folder')).toHaveValue('tiny-bert');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-summary')).toContainText(/Embedded 168 documents with tiny-bert \(fp32, mean pooling, 32 dims/);
  const set = page.getByTestId('embedding-set');
  await expect(set).toHaveCount(1);
  await expect(set).toContainText('168 ✓');
  await expect(set).toContainText('folder from this computer');

  // Dense search, straight from the set.
  await set.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByLabel('Pipeline', { exact: true })).toHaveValue('dense');
  await search(page, 'lighthouse keeper rescues shipwrecked sailors in a storm');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert (fp32, mean pooling, 32 dims');
  await expect(page.getByTestId('search-stats')).toContainText('168 vectors of tiny-bert restored from storage');

  // Hybrid: RRF of the dense set and BM25; BM25's matched terms are highlighted again.
  await page.getByLabel('Pipeline', { exact: true }).selectOption('rrf');
  await expect(page.getByLabel('Pipeline 1')).toHaveValue(/^dense:/);
  await expect(page.getByLabel('Pipeline 2')).toHaveValue('bm25');
  await expect(page.getByTestId('search-stats')).toContainText(/10 result\(s\)/);
  await expect(results.locator('mark').first()).toBeVisible();
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert');

  // A reload keeps the vectors: dense search works without embedding again.
  await page.reload();
  await page.goto('/#/search');
  await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await search(page, 'history of the tea trade in Port Avel');
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-stats')).toContainText('168 vectors of tiny-bert restored from storage');
  await page.goto('/#/embeddings');
  await expect(page.getByTestId('embedding-set')).toContainText('168 ✓');
});

test('a model that cannot be loaded gives a clear message, and BM25 search keeps working', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await page.getByLabel('Model', { exact: true }).selectOption({ label: 'Other model id…' });
  await page.getByLabel('Model id').fill('no-such-model');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  const error = page.getByTestId('embed-error');
  await expect(error).toContainText('Could not load embedding model "no-such-model" (dtype fp32) from local path "/models/no-such-model/"');
  await expect(error).toContainText('BM25 search works as before');
  await expect(page.getByText('None yet.')).toBeVisible();

  await page.goto('/#/search');
  await search(page, 'salt marshes');
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem').first()).toBeVisible();
});
