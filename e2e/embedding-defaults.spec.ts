// The Embeddings page's defaults: the best served model preselected, tiny-bert named a test model, q8 where it was
// measured close to fp32, no failed request on load, and an estimate before a long embedding.
import { expect, test, type Page } from '@playwright/test';
import { loadSample } from './support.ts';

/** Every response with status ≥ 400 and every console error while `page` is used. */
function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.request().method()} ${r.url()}`));
  page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`));
  return failures;
}

test('with only tiny-bert served it is preselected and named a test model, and the page loads with no 404', async ({ page }) => {
  await loadSample(page);
  const failures = watchFailures(page);
  await page.goto('/#/embeddings');
  const model = page.getByLabel('Model', { exact: true });
  await expect(model.locator('option[value="tiny-bert"]')).toHaveText(/test model.*\(in this app\)$/);
  await expect(model).toHaveValue('tiny-bert');
  await expect(page.getByLabel('Weights (dtype)')).toHaveValue('fp32');
  await expect(page.getByTestId('test-model-warning')).toContainText('generated test model with random weights');
  await expect(model.locator('option[value="Xenova/e5-small-v2"]')).toHaveText(/\(not in this app\)$/);
  // Which models are served is one listing, not a HEAD per file of each preset (a missing file is a logged 404).
  const listing = await page.evaluate(async () => (await fetch('/models/served-files.json')).json());
  expect(listing.files).toContain('tiny-bert/onnx/model.onnx');
  expect(failures).toEqual([]);
});

test('when MiniLM is served it is preselected with q8 weights, and tiny-bert is not', async ({ page }) => {
  await loadSample(page);
  // The app's server lists what public/models holds; here it lists a MiniLM export beside tiny-bert.
  const real = await page.evaluate(async () => ((await (await fetch('/models/served-files.json')).json()) as { files: string[] }).files);
  await page.route('**/models/served-files.json', (route) =>
    route.fulfill({
      json: {
        files: [
          ...real,
          ...['config.json', 'tokenizer.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'].map((f) => `Xenova/all-MiniLM-L6-v2/${f}`),
          ...['config.json', 'tokenizer.json', 'onnx/model.onnx'].map((f) => `Xenova/all-mpnet-base-v2/${f}`),
        ],
      },
    }),
  );
  await page.goto('/#/embeddings');
  const model = page.getByLabel('Model', { exact: true });
  await expect(model).toHaveValue('Xenova/all-MiniLM-L6-v2');
  await expect(page.getByLabel('Weights (dtype)')).toHaveValue('q8');
  await expect(page.getByLabel('Weights (dtype)').locator('option[value="q8"]')).toHaveText(/measured ≥ 0\.99 cosine/);
  await expect(page.getByTestId('model-location-hint')).toContainText('onnx/model_quantized.onnx');
  await expect(page.getByTestId('model-location-hint')).toContainText('They are present.');
  await expect(page.getByTestId('test-model-warning')).toHaveCount(0);
  // Choosing MPNet takes its own default (fp32); the person's choice is not replaced afterwards.
  await model.selectOption('Xenova/all-mpnet-base-v2');
  await expect(page.getByLabel('Weights (dtype)')).toHaveValue('fp32');
  await page.goto('/#/search');
  await page.goto('/#/embeddings');
  await expect(model).toHaveValue('Xenova/all-mpnet-base-v2');
});

test('before a long embedding the speed measured on a first batch, the time left and the faster routes are shown', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('tiny-bert');
  // Ask whatever the estimate (tiny-bert embeds the 168 sample documents in seconds).
  await page.getByLabel('Ask first above seconds').fill('0');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  const progress = page.getByRole('region', { name: 'Embedding progress' });
  await expect(progress.getByRole('heading')).toHaveText('Embed with tiny-bert?');
  await expect(progress.getByTestId('embed-estimate')).toHaveText(/^Measured \d+(\.\d)? docs\/s on the first 16 documents in this tab: about \d+ s for 168 documents\.$/);
  await expect(progress.getByTestId('faster-routes')).toContainText('dsw serve --dataset <folder> --model <model folder>');
  await expect(progress.getByTestId('faster-routes')).toContainText('Import vectors');
  // "Not now" stores nothing.
  await progress.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Embedding with tiny-bert was not started; nothing was stored.' })).toBeVisible();
  await expect(page.getByText('None yet.')).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();

  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await progress.getByRole('button', { name: 'Embed all 168 documents' }).click();
  await expect(page.getByTestId('embed-summary')).toContainText('Embedded 168 documents with tiny-bert', { timeout: 60_000 });
});

test('a short embedding starts at once after the measurement', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('tiny-bert');
  await page.getByLabel('Ask first above seconds').fill('100000');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-summary')).toContainText('Embedded 168 documents with tiny-bert', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: /Embed all/ })).toHaveCount(0);
});
