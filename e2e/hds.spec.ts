import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../src/test-support/openai-test-server.ts';

const KEY = 'sk-e2e-DO-NOT-EXPORT-31415926';
const MH01 = 'Who founded the college attended by the engineer who designed the Harrow Point lighthouse?';
const Q = (queries: string) => `<|begin search queries|>${queries}<|end search queries|>`;
const XSS_IMG = '<img src=x onerror="window.__xss = 1">';
const XSS_SCRIPT = '<script>window.__xss = 2</script>';

const promptOf = (request: RecordedRequest): string => request.body?.messages?.[0]?.content ?? '';
const turnOf = (request: RecordedRequest): number => Number(/Turn: (\d+)\//.exec(promptOf(request))?.[1] ?? 0);

/** The model of the three-turn run: two searches, then the answer. Turn 1 carries HTML that must stay text. */
function threeTurns(request: RecordedRequest): ScriptedReply {
  switch (turnOf(request)) {
    case 1:
      return {
        reasoning: `First find who designed the light. ${XSS_SCRIPT}`,
        content: `${XSS_IMG} ${Q('who designed Harrow Point Light; Harrow Point Light engineer')}`,
        chunkChars: 6,
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      };
    case 2:
      return { content: Q('Edmund Carrow scholarship college; Fennick College founded'), chunkChars: 6 };
    default:
      return { content: 'Fennick College was founded by her: \\boxed{Margery Fennick}' };
  }
}

let server: OpenAiTestServer;
let baseUrl: string;
test.afterEach(async () => {
  await server?.close();
});

async function start(respond: (request: RecordedRequest) => ScriptedReply) {
  server = new OpenAiTestServer({ respond });
  baseUrl = await server.start();
}

async function loadSample(page: Page) {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
}

async function openDeepSearch(page: Page, withKey = true) {
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(baseUrl);
  await page.getByLabel('Model name').fill('test-model');
  if (withKey) await page.getByLabel('API key').fill(KEY);
}

test('a three-turn HDS run streams onto the timeline with parallel queries and labelled results; HTML stays text; the export has no key', async ({ page }) => {
  await start(threeTurns);
  await loadSample(page);
  await openDeepSearch(page);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toContainText('The model "test-model" is available.');

  await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue(MH01);
  await expect(page.getByTestId('gold-answer')).toContainText('Margery Fennick');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByTestId('run-status')).toHaveText('completed');
  await expect(timeline.getByTestId('turn-card')).toHaveCount(3);
  const turn1 = timeline.getByRole('article', { name: 'Turn 1' });
  await expect(turn1.getByTestId('query-chip')).toHaveText(['who designed Harrow Point Light', 'Harrow Point Light engineer']);
  await expect(turn1.getByTestId('action-badge')).toHaveText('search');
  const results = turn1.getByRole('list', { name: 'Results for who designed Harrow Point Light' });
  await expect(results.getByRole('listitem').first()).toContainText('m033');
  await expect(results.getByRole('listitem').first()).toContainText('Harrow Point Light stands on the highest part of the headland');
  await expect(results.getByRole('listitem').first().getByTestId('relevance-mark')).toHaveText('✓ gold supporting passage');
  await expect(turn1.getByLabel('Timings of turn 1').locator('.timing-row')).toHaveCount(3); // the LLM call and two parallel retrievals
  await expect(turn1).toContainText('tokens 120 in / 30 out');
  await expect(timeline.getByRole('article', { name: 'Turn 2' }).getByTestId('query-chip')).toHaveText(['Edmund Carrow scholarship college', 'Fennick College founded']);
  await expect(timeline.getByTestId('search-meter')).toContainText('Search calls: 4 used, 4 left of 8');
  await expect(page.getByTestId('final-answer')).toContainText('Margery Fennick');
  await expect(page.getByTestId('answer-scores')).toHaveText('EM 1 F1 1.00');
  await expect(timeline.getByRole('article', { name: 'Turn 3' })).toHaveAttribute('aria-current', 'step');

  // Step through the turns with the keyboard (the newest turn is selected after a live run).
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowLeft');
  await expect(timeline.getByRole('article', { name: 'Turn 2' })).toHaveAttribute('aria-current', 'step');
  await page.keyboard.press('ArrowLeft');
  await expect(turn1).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('turn-position')).toContainText('Turn 1 · card 1 of 3');
  await page.keyboard.press('ArrowLeft'); // stays on the first turn
  await page.keyboard.press('ArrowRight');
  await expect(timeline.getByRole('article', { name: 'Turn 2' })).toHaveAttribute('aria-current', 'step');
  await expect(turn1).not.toHaveAttribute('aria-current', 'step');

  // <script> and <img onerror> in the model's output and reasoning are shown as text and never run.
  await expect(turn1.getByTestId('model-output')).toContainText(XSS_IMG);
  await expect(turn1.locator('details.reasoning')).toHaveAttribute('open', ''); // reasoning is shown open
  await expect(turn1.locator('.reasoning pre')).toContainText(XSS_SCRIPT);
  expect(await page.locator('main img, main script').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();

  // A document opens in the viewer.
  await results.getByRole('button', { name: 'm033' }).click();
  await expect(page.getByRole('dialog')).toContainText('two hundred and twenty feet above the sea');
  await page.getByRole('button', { name: 'Close document' }).click();

  // The key went to the server, in the Authorization header only.
  expect(server.chatRequests().every((r) => r.headers.authorization === `Bearer ${KEY}` && !r.rawBody.includes(KEY))).toBe(true);

  // The saved run's export carries the run but not the key.
  await page.getByRole('button', { name: 'Saved runs' }).click();
  const row = page.getByTestId('saved-run').first();
  await expect(row).toContainText(MH01.slice(0, 40));
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Export' }).click()]);
  const exported = fs.readFileSync((await download.path())!, 'utf8');
  expect(exported).toContain('"format": "dsw-agent-runs"');
  expect(exported).toContain('m033');
  expect(exported).not.toContain(KEY);
});

test('a run cancelled midway is saved as cancelled; after a reload both runs are listed and replay without the model', async ({ page }) => {
  await start((request) => {
    const prompt = promptOf(request);
    if (prompt.includes('slowly')) return { content: 'Let me think about the harbour, the lights and the railway. '.repeat(20), chunkChars: 4, writeDelayMs: 100 };
    return { content: '\\boxed{Saltmere}' };
  });
  await loadSample(page);
  // A server that does not answer: the test explains CORS for local servers.
  await page.goto('/#/hds');
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveText('The model name is empty.');
  await page.getByLabel('Model name').fill('any');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toContainText('(CORS): start Ollama with OLLAMA_ORIGINS');
  await openDeepSearch(page);
  await page.getByLabel('Question', { exact: true }).fill('Where was the chemist born?');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('completed');

  await page.getByLabel('Question', { exact: true }).fill('Answer slowly: what happened at the harbour?');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const output = page.getByRole('article', { name: 'Turn 1' }).getByTestId('model-output');
  await expect(output).toContainText('the lights');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveText('cancelled');
  await expect(page.getByText('The run was cancelled; what it did so far is saved.')).toBeVisible();
  const partial = (await output.textContent()) ?? '';
  expect(partial.length).toBeLessThan(1200); // far from the whole reply

  await page.reload();
  await page.getByRole('button', { name: 'Saved runs' }).click();
  const rows = page.getByTestId('saved-run');
  await expect(rows).toHaveCount(2);
  const cancelled = rows.filter({ hasText: 'Answer slowly' });
  await expect(cancelled).toContainText('cancelled');
  await expect(rows.filter({ hasText: 'Where was the chemist born?' })).toContainText('completed');
  // The model settings survived the reload, key included (stored in this browser only).
  await expect(page.getByLabel('API key')).toHaveValue(KEY);

  const requestsBefore = server.chatRequests().length;
  await cancelled.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('replay-note')).toContainText('no model is called');
  await expect(page.getByTestId('run-status')).toHaveText('cancelled');
  await expect(page.getByRole('article', { name: 'Turn 1' }).getByTestId('model-output')).toContainText('Let me think about the harbour');
  expect(server.chatRequests().length).toBe(requestsBefore);
});

test('a batch compares HDS with single-shot RAG, is interrupted by a reload, and resumes where it stopped', async ({ page }) => {
  await start((request) => {
    const prompt = promptOf(request);
    const slow = { chunkChars: 8, writeDelayMs: 60 };
    if (prompt.startsWith('Answer the question using the paragraphs')) return { content: 'Saltmere', ...slow };
    return { content: prompt.includes('Harrow Point lighthouse') ? '\\boxed{Margery Fennick}' : '\\boxed{Saltmere}', ...slow };
  });
  await loadSample(page);
  await openDeepSearch(page, false);
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await expect(page.getByText('22 question(s) with gold answers')).toBeVisible();
  await page.getByLabel('Number of questions').fill('3');
  for (const name of ['IRCoT', 'Question decomposition']) await page.getByRole('group', { name: 'Baselines' }).getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run batch' }).click();
  await expect(page.getByTestId('batch-progress')).toContainText(/[2-5] of 6 done/);

  await page.reload();
  await page.getByRole('button', { name: 'Saved runs' }).click();
  const row = page.getByTestId('saved-run').first();
  await expect(row).toContainText('interrupted');
  await row.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('button', { name: /^Resume \(\d of 6 done\)$/ }).click();
  const comparison = page.getByRole('table', { name: 'Comparison' });
  await expect(page.getByRole('heading', { name: /completed/ })).toBeVisible();
  // mh01 (Margery Fennick) and mh02 (Saltmere) right, mh03 wrong: HDS answers 2 of 3; single-shot only mh02.
  await expect(comparison.getByRole('row', { name: /Hybrid Deep Searcher/ })).toContainText(/3\s*0\s*0\.667\s*0\.667/);
  await expect(comparison.getByRole('row', { name: /Single-shot RAG/ })).toContainText(/3\s*0\s*0\.333\s*0\.333/);
  await expect(page.getByRole('table', { name: 'Per-question results' }).getByRole('row')).toHaveCount(7);
  await page.getByRole('button', { name: 'View mh01 hds' }).click();
  await expect(page.getByLabel('Question run').getByTestId('final-answer')).toContainText('Margery Fennick');
});

test('a model that echoes the API key never shows it: timeline while streaming, answer, saved run and export', async ({ page }) => {
  await start((request) =>
    turnOf(request) === 1
      ? { content: `Header says ${KEY}. ${Q(`lighthouse ${KEY}`)}`, chunkChars: 3, writeDelayMs: 15 }
      : { content: `<think>${KEY}</think>\\boxed{${KEY}}`, chunkChars: 4, writeDelayMs: 15 },
  );
  await loadSample(page);
  await openDeepSearch(page);
  await page.getByLabel('max_turns', { exact: true }).fill('1');
  await page.getByLabel('Question', { exact: true }).fill(MH01);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const seen: string[] = [];
  while ((await timeline.getByTestId('run-status').textContent().catch(() => '')) !== 'completed') {
    seen.push(await page.locator('main').innerText());
    await page.waitForTimeout(20);
  }
  await expect(page.getByTestId('final-answer')).toContainText('[redacted]');
  await expect(timeline.getByTestId('query-chip')).toHaveText(['lighthouse [redacted]']);
  seen.push(await page.locator('main').innerText());
  expect(seen.length).toBeGreaterThan(3);
  for (const text of seen) expect(text).not.toContain(KEY.slice(0, 12));
  await page.getByRole('button', { name: 'Saved runs' }).click();
  const row = page.getByTestId('saved-run').first();
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Export' }).click()]);
  const exported = fs.readFileSync((await download.path())!, 'utf8');
  expect(exported).toContain('[redacted]');
  expect(exported).not.toContain(KEY);
});

test('an HTML page instead of a stream is reported with its content type, first bytes and what to check', async ({ page }) => {
  await start(() => ({ raw: { contentType: 'text/html; charset=utf-8', body: '<!doctype html><html><title>Router login</title></html>' } }));
  await loadSample(page);
  await openDeepSearch(page, false);
  await page.getByLabel('Question', { exact: true }).fill(MH01);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status').filter({ hasText: 'The run failed' });
  await expect(status).toContainText('answered with an HTML page (text/html) instead of an event stream');
  await expect(status).toContainText('<!doctype html><html><title>Router login</title>');
  await expect(status).toContainText('ends in /v1');
});

test('number fields take their ranges from the shared rules: out-of-range values are refused with the range, the run keeps the last valid one', async ({ page }) => {
  await start(() => ({ content: '\\boxed{Margery Fennick}' }));
  await loadSample(page);
  await openDeepSearch(page, false);
  const calls = page.getByLabel('max_search_calls', { exact: true });
  await calls.fill('5');
  await calls.fill('100000000000');
  await expect(calls).toHaveAttribute('aria-invalid', 'true');
  await expect(calls).toHaveAttribute('title', 'Enter a number from 1 to 10000');
  await expect(calls).toHaveValue('100000000000'); // what was typed stays, marked
  const temperature = page.getByLabel('Temperature');
  await temperature.fill('5');
  await expect(temperature).toHaveAttribute('title', 'Enter a number from 0 to 2');
  await temperature.fill('');
  await expect(temperature).not.toHaveAttribute('aria-invalid', 'true'); // empty = the server's default
  await page.getByLabel('Question', { exact: true }).fill(MH01);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Timeline' }).getByTestId('search-meter')).toContainText('of 5');
});

test('a budget-scaling batch is charted as measured points joined by straight lines, ticked at the budgets, and exports SVG and CSV', async ({ page }) => {
  await start(() => ({ content: '\\boxed{Saltmere}' }));
  await loadSample(page);
  await openDeepSearch(page, false);
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('radio', { name: 'Search-budget scaling' }).check();
  await page.getByLabel('Number of questions').fill('2');
  await page.getByLabel('Budget to vary').selectOption('maxSearchCalls');
  await page.getByLabel('Budget values').fill('1, 2, 4');
  await page.getByRole('button', { name: 'Run batch' }).click();
  await expect(page.getByRole('heading', { name: /completed/ })).toBeVisible();

  const figure = page.getByRole('figure', { name: 'Search-budget scaling' });
  const chart = figure.getByTestId('scaling-chart');
  // Ticks exactly at the measured budgets; a dot per budget and line; only straight segments (no curve commands).
  const xTicks = chart.locator('.recharts-cartesian-axis-tick-value[text-anchor="middle"]'); // the y ticks are anchored at their end
  await expect(xTicks).toHaveText(['1', '2', '4']);
  await expect(chart.locator('.recharts-line')).toHaveCount(3);
  await expect(chart.locator('.recharts-line-dots circle')).toHaveCount(9);
  const paths = await chart.locator('.recharts-line-curve').evaluateAll((els) => els.map((el) => el.getAttribute('d') ?? ''));
  expect(paths).toHaveLength(3);
  for (const d of paths) expect(d).toMatch(/^M[\d.,\s-]+(L[\d.,\s-]+){2}$/);
  await expect(figure.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText([/F1/, /EM/, /evidence recall/]);

  // Lines that coincide are said to, exactly when their values are the same at every budget.
  const table = await figure.getByRole('table', { name: 'Scaling points' }).locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
  expect(table.map((r) => r[0])).toEqual(['1', '2', '4']);
  const emIsF1 = table.every((r) => r[2] === r[3]);
  await expect(figure.getByTestId('coincidence-note').filter({ hasText: '“F1” and “EM” coincide' })).toHaveCount(emIsF1 ? 1 : 0);

  const svgDownload = page.waitForEvent('download');
  await figure.getByRole('button', { name: 'Export SVG' }).click();
  const svg = fs.readFileSync((await (await svgDownload).path())!, 'utf8');
  expect((await svgDownload).suggestedFilename()).toMatch(/scaling max_search_calls\.svg$/);
  expect(svg).toContain('answer quality vs max_search_calls');
  expect(svg.match(/class="recharts-dot recharts-line-dot"/g)).toHaveLength(9);
  for (const label of ['>F1<', '>EM<', '>evidence recall<']) expect(svg).toContain(label);
  const csvDownload = page.waitForEvent('download');
  await figure.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync((await (await csvDownload).path())!, 'utf8').split('\r\n');
  expect(csv[0]).toBe('max_search_calls,questions,EM,F1,evidence recall');
  expect(csv.slice(1, 4).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['1,2', '2,2', '4,2']);
  const pngDownload = page.waitForEvent('download');
  await figure.getByRole('button', { name: 'Export PNG' }).click();
  expect(fs.readFileSync((await (await pngDownload).path())!).subarray(1, 4).toString()).toBe('PNG');
});

test('a batch recipe is made again on the Batch tab with the model configured here, and scores as the original did', async ({ page }) => {
  await start((request) => {
    const prompt = promptOf(request);
    if (prompt.startsWith('Answer the question using the paragraphs')) return { content: 'Saltmere' };
    return { content: prompt.includes('Harrow Point lighthouse') ? '\\boxed{Margery Fennick}' : '\\boxed{Saltmere}' };
  });
  await loadSample(page);
  await openDeepSearch(page);
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByLabel('Number of questions').fill('3');
  for (const name of ['IRCoT', 'Question decomposition']) await page.getByRole('group', { name: 'Baselines' }).getByLabel(name).uncheck();
  await page.getByRole('button', { name: 'Run batch' }).click();
  await expect(page.getByRole('heading', { name: /completed/ })).toBeVisible();
  const comparison = page.getByRole('table', { name: 'Comparison' });
  // Every cell but the wall times.
  const scores = async () => (await comparison.locator('tbody td').allTextContents()).filter((cell) => !/\d ms$/.test(cell));
  const original = await scores();
  expect(original.length).toBeGreaterThan(4);

  await page.getByRole('button', { name: 'Saved runs' }).click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('saved-run').first().getByRole('button', { name: 'Recipe' }).click()]);
  const recipeText = fs.readFileSync((await file.path())!, 'utf8');
  expect(recipeText).not.toContain(KEY);
  expect(JSON.parse(recipeText)).toMatchObject({ experiment: { kind: 'hds-batch', questionIds: ['mh01', 'mh02', 'mh03'], llm: { model: 'test-model' } } });

  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByText('Re-run a batch recipe').click();
  const recipeFile = { name: 'batch.recipe.json', mimeType: 'application/json', buffer: Buffer.from(recipeText) };
  await page.getByLabel('Import a batch recipe').setInputFiles(recipeFile);
  await expect(page.getByTestId('batch-recipe-check')).toContainText('match the recipe');
  const requestsBefore = server.chatRequests().length;
  await page.getByRole('button', { name: 'Run this batch recipe' }).click();
  await expect(page.getByRole('heading', { name: /\(re-run\)\s*completed/ })).toBeVisible();
  await expect(comparison.locator('tbody tr')).toHaveCount(2);
  expect(await scores()).toEqual(original);
  // It ran with the key configured here (the recipe has none), against the same server.
  const requests = server.chatRequests().slice(requestsBefore);
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

  // Another model configured here is named as a difference.
  await page.getByLabel('Model name').fill('other-model');
  await page.getByLabel('Import a batch recipe').setInputFiles(recipeFile);
  await expect(page.getByTestId('batch-recipe-differences')).toContainText("The recipe's LLM is test-model; the model settings here use other-model.");
});
