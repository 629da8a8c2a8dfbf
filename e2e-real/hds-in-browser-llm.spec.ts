// The Deep search page with the in-browser provider on the model of `npm run models` (local/qwen2.5-coder-0.5b-
// instruct, 4-bit ONNX, served by the app from public/models/): loaded in the HDS worker by transformers.js on
// wasm, offline. One question, one plan turn and small replies: CPU generation is slow. Skipped when absent.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BROWSER_LLM, browserLlmPresent } from '../scripts/browser-llm.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The bench's system message (the 0.5B model acts on the plan prompt with it rather than echoing it), typed in the page.
const SYSTEM_PROMPT = fs.readFileSync(path.join(root, 'bench/real/hds-system-prompt.txt'), 'utf8').trim();
const missing = browserLlmPresent(root) ? null : `public/models/${BROWSER_LLM.modelId}/ not found: run \`npm run models -- browser-llm\``;

test('the in-browser provider runs the local model offline: the timeline shows its text and an answer', async ({ page }) => {
  test.skip(missing !== null, missing ?? '');
  test.setTimeout(2_400_000);
  const offSite: string[] = [];
  page.on('request', (r) => {
    // The app's own blobs (the model-file fetcher hands transformers.js Blob responses) are same-origin.
    if (!/^(blob:)?http:\/\/127\.0\.0\.1[:/]/.test(r.url()) && !r.url().startsWith('data:')) offSite.push(r.url());
  });
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('transformers');
  const notes = page.getByTestId('in-browser-needs');
  await expect(notes).toContainText('Present locally, offline');
  await notes.getByRole('button', { name: `Use ${BROWSER_LLM.modelId}` }).click();
  await expect(page.getByLabel('In-browser model id')).toHaveValue(BROWSER_LLM.modelId);
  await expect(notes).toContainText(`present locally — served by this app from /models/${BROWSER_LLM.modelId}/`);
  await page.getByLabel('Device').selectOption('wasm');
  await page.getByLabel('Temperature').fill('0');
  await page.getByLabel('Max tokens').fill('24');
  await page.getByLabel('max_turns').fill('1');
  await page.getByLabel('System message').fill(SYSTEM_PROMPT);

  const loadStarted = Date.now();
  await page.getByRole('button', { name: 'Download and load the model' }).click();
  await expect(page.getByTestId('connection-result')).toHaveText(`Loaded ${BROWSER_LLM.modelId} (wasm, q4).`, { timeout: 900_000 });
  console.log(`model loaded in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`);

  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  const runStarted = Date.now();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed', { timeout: 2_000_000 });
  console.log(`run completed in ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
  const cards = timeline.getByTestId('turn-card');
  expect(await cards.count()).toBeGreaterThanOrEqual(1);
  for (const card of await cards.all()) console.log(`turn: ${(await card.locator('header .meta').last().textContent())?.trim()}`);
  const outputs = await timeline.getByTestId('model-output').allTextContents();
  console.log(`model output: ${outputs.map((o) => JSON.stringify(o)).join(' | ')}`);
  expect(outputs.length).toBeGreaterThanOrEqual(1);
  for (const output of outputs) expect(output.trim().length).toBeGreaterThan(0);
  const answer = (await page.getByTestId('final-answer').textContent())?.trim() ?? '';
  console.log(`final answer: ${JSON.stringify(answer)}`);
  expect(answer.length).toBeGreaterThan(0);
  await expect(page.getByTestId('answer-scores')).toHaveText(/^EM [01] F1 \d\.\d\d$/);
  expect(offSite, 'nothing is fetched from outside the app').toEqual([]);

  // The system message went with every HDS call and is saved with the run, as for an HTTP provider.
  await page.getByRole('button', { name: 'Saved runs' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('saved-run').first().getByRole('button', { name: 'Export' }).click()]);
  const saved = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')).runs[0];
  expect(saved.llm).toMatchObject({ provider: 'transformers.js', model: BROWSER_LLM.modelId, systemPrompt: SYSTEM_PROMPT, systemPromptScope: 'hds' });
  const calls: Array<{ systemPrompt?: string }> = [...saved.run.turns.map((t: { llm: unknown }) => t.llm), ...(saved.run.fallback ? [saved.run.fallback] : [])];
  expect(calls.length).toBeGreaterThanOrEqual(1);
  for (const call of calls) expect(call.systemPrompt).toBe(SYSTEM_PROMPT);
});
