import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { tinyModelFolder } from './support.ts';

// The tiny BERT made by `npm run gen:model` (the build generates it): real inference in the browser worker.

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

test('embedding interrupted by closing the tab resumes where it stopped', async ({ page }) => {
  // 10,000 documents, the tab closed part-way. At load 4–5 the first 4,096-row chunk came after more than 20 s and
  // the whole test took 47 s.
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-resume-'));
  const file = path.join(dir, 'harbour.jsonl');
  const words = 'estuary harbour tide lock barge ferry crane timber salt mill wind water'.split(' ');
  const lines = Array.from({ length: 10_000 }, (_, i) =>
    JSON.stringify({ _id: `h${i}`, title: `Harbour note ${i}`, text: Array.from({ length: 20 }, (_, j) => words[(i * 5 + j * 7) % words.length]).join(' ') }),
  );
  fs.writeFileSync(file, lines.join('\n'));
  await page.goto('/#/corpora');
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('10,000 documents');

  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'A folder on this computer (offline)' }).check();
  await page.getByLabel('Choose a model folder').setInputFiles(tinyModelFolder);
  await page.getByLabel('Ask first above seconds').fill('100000'); // no question before embedding (embedding-defaults.spec asks)
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  // tiny-bert's 32-d vectors are stored in chunks of 4,096 rows: wait until the first chunk is written.
  await expect(page.getByTestId('embed-progress')).toContainText(/^(4,[2-9]\d\d|[5-9],\d{3}) of 10,000 documents/, { timeout: 90_000 });
  const context = page.context();
  await page.close();

  const next = await context.newPage();
  await next.goto('/#/embeddings');
  const set = next.getByTestId('embedding-set');
  await expect(set).toContainText(/of 10,000/);
  const stored = Number((/([\d,]+) of 10,000/.exec((await set.textContent())!)?.[1] ?? '0').replace(/,/g, ''));
  expect([4096, 8192]).toContain(stored); // whole chunks only: a chunk in progress is lost, never half-kept
  await set.getByRole('button', { name: 'Resume' }).click();
  await expect(next.getByRole('region', { name: 'Embedding progress' })).toContainText(`resumed at ${stored.toLocaleString('en-US')}`);
  await expect(next.getByTestId('embed-summary')).toBeVisible({ timeout: 120_000 });
  await expect(set).toContainText('10,000 ✓');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the model menu says which models this app serves, and how to get one it does not', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'Served by this app (offline)' }).check();
  await page.getByLabel('Model', { exact: true }).selectOption('tiny-bert');
  await expect(page.getByLabel('Model', { exact: true }).locator('option[value="tiny-bert"]')).toHaveText(/\(in this app\)$/);
  await expect(page.getByTestId('model-location-hint')).toContainText('They are present.');
  // tiny-bert is generated in fp32 only: the quantised file is not there.
  await page.getByLabel('Weights (dtype)').selectOption('q8');
  const hint = page.getByTestId('model-location-hint');
  await expect(hint).toContainText('Not present in this app (onnx/model_quantized.onnx missing).');
  await expect(hint).toContainText('To get "tiny-bert": run `npm run gen:model`');
  await expect(page.getByLabel('Model', { exact: true }).locator('option[value="tiny-bert"]')).toHaveText(/\(not in this app\)$/);
});

test('a model served by the app is read once per file, whole, with no failed request, and embeds', async ({ page, context }) => {
  // transformers.js alone GETs every file twice in parallel (an unread metadata probe and the load); in Chromium
  // the two share one HTTP-cache entry and the load can fail with "network error". The app's fetcher reads each once.
  const requests: string[] = [];
  const failed: string[] = [];
  context.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/models/tiny-bert/') && r.method() === 'GET') requests.push(new URL(r.url()).pathname);
  });
  // (The model menu's HEAD presence checks are cancelled on purpose when the choice changes; only GETs count.)
  context.on('requestfailed', (r) => {
    if (new URL(r.url()).pathname.startsWith('/models/tiny-bert/') && r.method() === 'GET') failed.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  await loadSample(page);
  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'Served by this app (offline)' }).check();
  await page.getByLabel('Model', { exact: true }).selectOption('tiny-bert');
  await expect(page.getByTestId('model-location-hint')).toContainText('They are present.');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-summary')).toContainText(/Embedded 168 documents with tiny-bert \(fp32, mean pooling, 32 dims/, { timeout: 60_000 });
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
    expect(requests.filter((p) => p === `/models/tiny-bert/${file}`), `GETs of ${file}: ${requests.join(', ')}`).toHaveLength(1);
  }
  expect(failed).toEqual([]);
});
