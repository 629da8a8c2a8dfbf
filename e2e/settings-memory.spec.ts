import { expect, test } from '@playwright/test';
import { OpenAiTestServer } from '../src/test-support/openai-test-server.ts';

// Issue 11, item 18: settings a person typed survive switching provider and leaving a page.

let server: OpenAiTestServer;
test.afterEach(async () => {
  await server?.close();
});

test('each model provider keeps its base URL, model, max tokens and system message when switching away and back; a connection result clears when they change', async ({ page }) => {
  server = new OpenAiTestServer({ models: ['test-model', 'other-model'] });
  const baseUrl = await server.start();
  await page.goto('/#/hds');
  const provider = page.getByLabel('Provider');
  await provider.selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  await page.getByLabel('Max tokens').fill('777');
  await page.getByRole('button', { name: 'Test connection' }).click();
  const result = page.getByTestId('connection-result');
  await expect(result).toContainText('The model "test-model" is available.');
  // The result was about test-model at that address: changing either clears it.
  await page.getByLabel('Model name').fill('other-model');
  await expect(result).toHaveCount(0);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(result).toContainText('The model "other-model" is available.');
  await page.getByLabel('Base URL').fill(`${baseUrl}/`);
  await expect(result).toHaveCount(0);
  await page.getByLabel('Base URL').fill(baseUrl);

  // Ollama starts from its own defaults: nothing carried over.
  await provider.selectOption('ollama');
  await expect(page.getByLabel('Base URL')).toHaveValue('http://localhost:11434/v1');
  await expect(page.getByLabel('Model name')).toHaveValue('');
  await expect(page.getByLabel('Max tokens')).toHaveValue('');
  await page.getByLabel('Model name').fill('qwen3:4b');
  await page.getByLabel('System message').fill('Ask the search engine first.');
  await provider.selectOption('transformers');
  await expect(page.getByLabel('In-browser model id')).toHaveValue(/Qwen2\.5-0\.5B/);
  // The in-browser model has a system message of its own (a system turn of its chat template).
  await expect(page.getByLabel('System message')).toHaveValue('');
  await page.getByLabel('System message').fill('Answer in a few words.');

  await provider.selectOption('custom');
  await expect(page.getByLabel('Base URL')).toHaveValue(baseUrl);
  await expect(page.getByLabel('Model name')).toHaveValue('other-model');
  await expect(page.getByLabel('Max tokens')).toHaveValue('777');
  await expect(page.getByLabel('System message')).toHaveValue('');
  await provider.selectOption('ollama');
  await expect(page.getByLabel('Model name')).toHaveValue('qwen3:4b');
  await expect(page.getByLabel('System message')).toHaveValue('Ask the search engine first.');

  // Stored in this browser: after a reload, switching back still restores the custom server.
  await page.waitForTimeout(600); // the settings are saved 300 ms after the last change
  await page.reload();
  await expect(page.getByLabel('Provider')).toHaveValue('ollama');
  await page.getByLabel('Provider').selectOption('custom');
  await expect(page.getByLabel('Base URL')).toHaveValue(baseUrl);
  await expect(page.getByLabel('Model name')).toHaveValue('other-model');
  await expect(page.getByLabel('Max tokens')).toHaveValue('777');
  await page.getByLabel('Provider').selectOption('transformers');
  await expect(page.getByLabel('System message')).toHaveValue('Answer in a few words.');
});

test('the GQR lab form keeps top k, measures, grid and fixed settings when leaving the page and after a reload; an out-of-range value disables the run with words', async ({ page }) => {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  await page.goto('/#/gqr');
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5');
  await page.getByLabel('Grid target').fill('');
  await page.getByLabel('Fixed nSteps').fill('7');
  await page.getByLabel('Fixed optimizer').selectOption('adam');
  await page.getByLabel('Results per query (top k)').fill('25');
  await page.getByLabel('Measures').fill('nDCG@5, AP');
  await page.getByLabel('Sweep name').fill('kept');

  const expectKept = async () => {
    await expect(page.getByLabel('Grid mixtureAlpha')).toHaveValue('0, 0.5');
    await expect(page.getByLabel('Grid target')).toHaveValue('');
    await expect(page.getByLabel('Fixed nSteps')).toHaveValue('7');
    await expect(page.getByLabel('Fixed optimizer')).toHaveValue('adam');
    await expect(page.getByLabel('Results per query (top k)')).toHaveValue('25');
    await expect(page.getByLabel('Measures')).toHaveValue('nDCG@5, AP');
    await expect(page.getByLabel('Sweep name')).toHaveValue('kept');
  };
  await page.goto('/#/search');
  await expect(page.getByRole('region', { name: 'New sweep' })).toHaveCount(0); // the lab is gone
  await page.goto('/#/gqr');
  await expectKept();
  await page.reload();
  await expectKept();

  // Out of range: marked with the range, the run button off, and the form says which field.
  const topK = page.getByLabel('Results per query (top k)');
  await topK.fill('100000000000');
  await expect(topK).toHaveAttribute('aria-invalid', 'true');
  await expect(topK).toHaveAttribute('title', 'Enter a number from 1 to 100000');
  await expect(page.getByRole('button', { name: /^Run sweep/ })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'New sweep' }).getByRole('alert')).toContainText('top k: enter a number from 1 to 100000');
  await page.getByLabel('Fixed learningRate').fill('5000');
  await expect(page.getByLabel('Fixed learningRate')).toHaveAttribute('title', 'Enter a number above 0, up to 1000');
  // 0 is refused here too: GQR would refuse it when run ("learning_rate must be positive")
  await page.getByLabel('Fixed learningRate').fill('0');
  await expect(page.getByLabel('Fixed learningRate')).toHaveAttribute('aria-invalid', 'true');
  await topK.fill('25');
  await page.getByLabel('Fixed learningRate').fill('0.5');
  await expect(page.getByRole('region', { name: 'New sweep' }).getByRole('alert')).toHaveCount(0);
});
