import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OpenAiTestServer } from '../src/test-support/openai-test-server.ts';
import { loadAndEmbedSample, tinyModelFolder } from './support.ts';

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(path.join(tinyModelFolder, file))).digest('hex');

test('a dense run saved in the browser records the versions, the browser and the model files’ sha256; so does an HDS run', async ({ page }) => {
  test.setTimeout(300_000);
  await loadAndEmbedSample(page, { embedTimeout: 180_000 });
  await page.goto('/#/runs');
  await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await page.getByLabel('Run name').fill('dense tiny');
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText('Saved “dense tiny”', { timeout: 60_000 });
  await page.getByTestId('run-row').filter({ hasText: 'dense tiny' }).getByRole('button', { name: 'dense tiny' }).click();
  const details = page.getByRole('region', { name: 'Run details' });
  await expect(details.getByTestId('run-software')).toContainText(/workbench \d+\.\d+\.\d+; transformers\.js 4\.\d+\.\d+; onnxruntime-web \d+\.\d+/);
  await expect(details.getByTestId('run-host')).toContainText(await page.evaluate(() => navigator.userAgent));
  const files = details.getByTestId('run-model-files');
  await expect(files).toContainText(`onnx/model.onnx sha256 ${sha('onnx/model.onnx')}`);
  await expect(files).toContainText(`config.json sha256 ${sha('config.json')}`);
  await expect(files).toContainText(`tokenizer.json sha256 ${sha('tokenizer.json')}`);

  // An HDS run over the dense set carries the same record.
  const server = new OpenAiTestServer({ respond: () => ({ content: 'It is \\boxed{Margery Fennick}' }) });
  const baseUrl = await server.start();
  try {
    await page.goto('/#/hds');
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Base URL').fill(baseUrl);
    await page.getByLabel('Model name').fill('test-model');
    await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
    await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Timeline' }).getByTestId('run-status')).toHaveText('completed');
  } finally {
    await server.close();
  }
  await page.getByRole('button', { name: 'Saved runs' }).click();
  await page.getByTestId('saved-run').first().getByRole('button', { name: 'Details' }).click();
  const saved = page.getByRole('region', { name: 'Saved run details' });
  await expect(saved.getByTestId('run-software')).toContainText(/workbench \d+\.\d+\.\d+; transformers\.js 4\.\d+\.\d+; onnxruntime-web/);
  await expect(saved.getByTestId('run-host')).toContainText('Chrome');
  await expect(saved.getByTestId('run-model-files')).toContainText(sha('onnx/model.onnx'));
});
