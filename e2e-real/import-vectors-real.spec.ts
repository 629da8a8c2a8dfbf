// The goal, measured: Cranfield (1,398 documents) gets real MiniLM vectors into a tab by importing what
// `dsw embed` made. Times the corpus load, the import (model load and the 8-document check included) and a first
// dense search, and prints them with the load average. The vectors file comes from REAL_VECTORS (a .safetensors
// made beforehand by `dsw embed --dataset <cranfield> --model Xenova/all-MiniLM-L6-v2 --out …`), else it is made
// here and that time is printed too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sharedDataset } from '../bench/harness.ts';

const root = path.join(import.meta.dirname, '..');
const MODEL = 'Xenova/all-MiniLM-L6-v2';
const load = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');

test('Cranfield gets real MiniLM vectors into a tab through an imported .safetensors', async ({ page }) => {
  const cranfield = sharedDataset('cranfield');
  test.skip(!cranfield, 'skipped: no cranfield in ../shared/data');
  test.skip(!fs.existsSync(path.join(root, 'public/models', MODEL, 'onnx/model.onnx')), `skipped: ${MODEL} is not in public/models/ (npm run models)`);
  test.setTimeout(30 * 60_000);
  const timings: Record<string, string> = {};

  let vectors = process.env.REAL_VECTORS;
  if (!vectors) {
    vectors = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-real-import-')), 'cranfield-minilm.safetensors');
    const started = performance.now();
    execFileSync(process.execPath, [path.join(root, 'bin/dsw.mjs'), 'embed', '--dataset', cranfield!, '--model', MODEL, '--out', vectors], { cwd: root, stdio: 'pipe' });
    timings.dswEmbed = `${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`;
  }

  const t0 = performance.now();
  await page.goto('/#/corpora');
  await page.getByLabel('Choose a folder').setInputFiles(cranfield!);
  await page.getByLabel('Corpus name').fill('Cranfield');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('1,398 documents', { timeout: 5 * 60_000 });
  const t1 = performance.now();

  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'Served by this app (offline)' }).check();
  await page.getByLabel('Model', { exact: true }).selectOption(MODEL);
  await page.getByLabel('Weights (dtype)').selectOption('fp32');
  const panel = page.getByRole('region', { name: 'Import vectors' });
  const t2 = performance.now();
  await panel.getByLabel('Choose vector files').setInputFiles(vectors);
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const done = panel.getByTestId('import-done');
  await expect(done.or(panel.getByTestId('import-error'))).toBeVisible({ timeout: 10 * 60_000 });
  await expect(panel.getByTestId('import-error')).toHaveCount(0);
  await expect(done).toContainText(`Imported 1,398 vectors from ${path.basename(vectors)} (ids in its header) as ${MODEL}`);
  await expect(done).toContainText(/lowest cosine (0\.999\d|1\.0000)\./);
  const t3 = performance.now();
  // Read now: the Search button below leaves this page.
  const lowestCosine = (await done.textContent())?.match(/lowest cosine \d\.\d+/)?.[0];

  const set = page.getByTestId('embedding-set');
  await set.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByLabel('Pipeline', { exact: true })).toHaveValue('dense');
  await page.getByLabel('Query').fill('boundary layer transition on a flat plate');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(10, { timeout: 5 * 60_000 });
  const t4 = performance.now();

  Object.assign(timings, {
    loadCorpus: `${((t1 - t0) / 1000).toFixed(1)} s`,
    importVectors: `${((t3 - t2) / 1000).toFixed(1)} s (${lowestCosine})`,
    firstDenseSearch: `${((t4 - t3) / 1000).toFixed(1)} s`,
    tabTotal: `${((t4 - t0) / 1000).toFixed(1)} s`,
    loadAverage: load(),
  });
  console.log(`import-vectors-real: ${JSON.stringify(timings)}`);
});
