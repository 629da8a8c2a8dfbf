// The Deep search page against the real LLM of `npm run models`, served on loopback (npm run llm:serve); skipped
// when the model is absent. LLM_BASE_URL=http://127.0.0.1:<port>/v1 uses a server that is already running.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { REAL_LLM_MODEL, realLlmMissing, startLlmServer, type LlmServer } from '../bench/real-llm.ts';

const MH01 = 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?';
const SCREENSHOT = path.resolve(import.meta.dirname, '../docs/hds-real-timeline.png');
// A system message: without one the small model echoes the plan prompt's two actions instead of acting; with the
// bench's (hds-system-prompt.txt) the 0.5B model answers mh01 at once, unsearched. This one asks it to search first.
const SYSTEM_PROMPT = fs.readFileSync(path.resolve(import.meta.dirname, '../bench/real/hds-system-prompt-search-first.txt'), 'utf8').trim();

const missing = realLlmMissing();
let server: LlmServer | undefined;
let baseUrl = process.env.LLM_BASE_URL ?? '';

test.beforeAll(async () => {
  if (missing || baseUrl) return;
  server = await startLlmServer(Number(process.env.E2E_LLM_PORT ?? 8183));
  baseUrl = server.baseUrl;
});
test.afterAll(async () => {
  await server?.stop();
});

async function loadSample(page: Page) {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
}

test('a question on the sample corpus, answered by the real model: the timeline shows its output, its queries with labelled results, and the scored answer', async ({ page }) => {
  test.skip(missing !== null, missing ?? '');
  test.setTimeout(1_200_000);
  await loadSample(page);
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill(REAL_LLM_MODEL);
  await page.getByLabel('Temperature').fill('0');
  await page.getByLabel('Max tokens').fill('256');
  await page.getByLabel('System message').fill(SYSTEM_PROMPT);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toContainText(`The model "${REAL_LLM_MODEL}" is available.`, { timeout: 120_000 });

  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(MH01);
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed', { timeout: 1_100_000 });
  const cards = timeline.getByTestId('turn-card');
  expect(await cards.count()).toBeGreaterThanOrEqual(1);
  // What the model wrote, as text, on every card.
  for (const output of await timeline.getByTestId('model-output').all()) await expect(output).not.toBeEmpty();
  // Every query the model asked has its own labelled result list.
  for (const chip of await timeline.getByTestId('query-chip').all()) {
    const query = (await chip.textContent())!.trim();
    await expect(timeline.getByRole('list', { name: `Results for ${query}` }).getByRole('listitem').first()).toBeVisible();
  }
  await expect(page.getByTestId('final-answer')).not.toBeEmpty();
  await expect(page.getByTestId('answer-scores')).toHaveText(/^EM [01] F1 \d\.\d\d$/);
  // Real queries: the model searched at least once, with text of its own (not the prompt's instruction echoed).
  const chips = await timeline.getByTestId('query-chip').allTextContents();
  const outputs = await timeline.getByTestId('model-output').allTextContents();
  expect(chips.length, `the model searched nothing; it wrote: ${outputs.map((o) => JSON.stringify(o)).join(' | ')}`).toBeGreaterThanOrEqual(1);
  for (const chip of chips) expect(chip.trim()).not.toMatch(/^(and|\.\.\.)?$/i);
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
});
