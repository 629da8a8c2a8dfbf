// A corpus served by `dsw serve` on loopback, used from every page as a local one would be.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../src/test-support/openai-test-server.ts';

const root = path.join(import.meta.dirname, '..');
const SERVE_PORT = Number(process.env.E2E_SERVE_PORT ?? 8791);
const SERVER = `http://127.0.0.1:${SERVE_PORT}`;
const TOKEN = 'e2e-serve-token-2718';
const APP_ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;

let serve: ChildProcess | null = null;

test.beforeAll(async () => {
  serve = spawn(
    process.execPath,
    [path.join(root, 'bin/dsw.mjs'), 'serve', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--port', String(SERVE_PORT), '--token', TOKEN, '--allow-origin', APP_ORIGIN],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  serve.stderr!.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dsw serve did not start in 60 s: ${stderr}`)), 60_000);
    serve!.stdout!.on('data', (chunk) => {
      if (String(chunk).includes('Serving')) {
        clearTimeout(timer);
        resolve();
      }
    });
    serve!.once('exit', (code) => reject(new Error(`dsw serve exited with ${code}: ${stderr}`)));
  });
});

test.afterAll(() => {
  serve?.kill('SIGTERM');
});

async function connect(page: Page) {
  await page.goto('/#/corpora');
  const panel = page.getByRole('region', { name: 'Connect to a workbench server' });
  await panel.getByLabel('Server address').fill(SERVER);
  await panel.getByLabel('Token (optional)').fill(TOKEN);
  await panel.getByRole('button', { name: 'Check connection' }).click();
  await expect(panel.getByRole('status').first()).toContainText(`Connected to ${SERVER}: it serves one corpus.`);
  await expect(panel.getByTestId('served-corpus')).toContainText('168 documents · 54 queries');
  await expect(panel.getByTestId('served-corpus')).toContainText('vectors: tiny-bert');
  await panel.getByRole('button', { name: 'Add “meridian”' }).click();
  await expect(panel.getByText('Added “meridian @ 127.0.0.1:')).toBeVisible();
  await expect(page.getByTestId('corpus-item')).toContainText(`served by ${SERVER}`);
}

async function search(page: Page, query: string) {
  await page.getByLabel('Query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('connecting: a server that is down and a wrong token are explained in words', async ({ page }) => {
  await page.goto('/#/corpora');
  const panel = page.getByRole('region', { name: 'Connect to a workbench server' });
  await panel.getByLabel('Server address').fill('http://127.0.0.1:8799');
  await panel.getByRole('button', { name: 'Check connection' }).click();
  await expect(panel.getByRole('alert')).toContainText('Cannot reach the workbench server at http://127.0.0.1:8799');
  await panel.getByLabel('Server address').fill(SERVER);
  await panel.getByLabel('Token (optional)').fill('not-the-token');
  await panel.getByRole('button', { name: 'Check connection' }).click();
  await expect(panel.getByRole('alert')).toContainText('refused the request: The token was refused');
});

test('a served corpus works on Search, Runs, Compare, the GQR lab and Deep search', async ({ page }) => {
  test.setTimeout(240_000);
  await connect(page);

  // Search: BM25 and dense, run by the server, documents fetched from it.
  await page.goto('/#/search');
  await search(page, 'lighthouse keeper rescues shipwrecked sailors in a storm');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-stats')).toContainText(`Searched on ${SERVER}`);
  await expect(results.getByRole('listitem').first()).toContainText(/m\d{3} · score \d+\.\d{4}(?: ✓ relevant \(\d+\))?\S/); // the served document's text follows
  await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await search(page, 'history of the tea trade in Port Avel');
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert');

  // Runs: two BM25 runs over the served query set, saved here with the server in their configuration.
  await page.goto('/#/runs');
  await page.getByLabel('Run name').fill('Remote BM25');
  await page.getByRole('button', { name: 'Run over 54 queries' }).click();
  await expect(page.getByTestId('run-done')).toContainText(/Saved “Remote BM25”: 54 queries in [\d.]+ s · nDCG@10 0\.\d{4}/);
  await page.getByLabel('Run name').fill('Remote BM25 k1 1.2');
  await page.getByLabel('BM25 k1').fill('1.2');
  await page.getByRole('button', { name: 'Run over 54 queries' }).click();
  await expect(page.getByTestId('run-done')).toContainText('Saved “Remote BM25 k1 1.2”');
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(2);
  await rows.filter({ hasText: 'Remote BM25 k1 1.2' }).getByRole('button', { name: 'Remote BM25 k1 1.2' }).click();
  const details = page.getByRole('region', { name: 'Run details' });
  await details.getByText('Configuration (JSON)').click();
  await expect(details.getByTestId('run-config')).toContainText(`"server": "${SERVER}"`);
  await expect(details.getByTestId('run-config')).toContainText('"serverCorpusId": "meridian"');
  await expect(details.getByTestId('run-config')).toContainText('"k1": 1.2');
  await expect(details.getByTestId('run-config')).not.toContainText(TOKEN);
  await details.getByRole('button', { name: 'Close details' }).click();

  // Compare, with the served documents side by side.
  await page.getByRole('link', { name: 'Compare' }).click();
  await page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' }).click();
  await expect(page.getByTestId('comparison-row').first()).toContainText(/nDCG@10\s*0\.\d{4}/);
  await page.getByTestId('per-query-row').first().getByRole('button').click();
  const sideBySide = page.getByRole('region', { name: 'Rankings side by side' });
  await expect(sideBySide.getByRole('list', { name: 'Run ranking' }).getByRole('listitem').first()).toContainText(/m\d+/);

  // The GQR lab: children and embeddings prepared on the server, re-ranked here.
  await page.goto('/#/gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5, 1');
  await page.getByLabel('Sweep name').fill('Remote α');
  await page.getByRole('button', { name: /^Run sweep: \d+ grid points × 54 queries/ }).click();
  await expect(page.getByTestId('sweep-summary')).toContainText('× 54 queries');
  await expect(page.getByTestId('best-point')).toContainText(/Best: nDCG@10 0\.\d{4}/);
  await page.getByRole('button', { name: 'Inspect q01' }).click();
  await expect(page.getByTestId('inspector-path')).toContainText('single-vector cosine');

  // Deep search against the loopback OpenAI server, searching the served corpus.
  const llm = new OpenAiTestServer({ respond: threeTurns });
  const baseUrl = await llm.start();
  try {
    await page.goto('/#/hds');
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Base URL').fill(baseUrl);
    await page.getByLabel('Model name').fill('test-model');
    await page.getByLabel('Pick a question from the corpus').selectOption('mh01');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline.getByTestId('run-status')).toHaveText('completed');
    const turn1 = timeline.getByRole('article', { name: 'Turn 1' });
    const hits = turn1.getByRole('list', { name: 'Results for who designed Harrow Point Light' });
    await expect(hits.getByRole('listitem').first()).toContainText('Harrow Point Light stands on the highest part of the headland');
    await expect(hits.getByRole('listitem').first().getByTestId('relevance-mark')).toHaveText('✓ gold supporting passage');
    await expect(page.getByTestId('final-answer')).toContainText('Margery Fennick');
  } finally {
    await llm.close();
  }

  // After a reload the reference and its token are still here: search goes straight to the server.
  await page.reload();
  await page.goto('/#/search');
  await search(page, 'salt marshes');
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-stats')).toContainText(`Searched on ${SERVER}`);
});

const Q = (queries: string) => `<|begin search queries|>${queries}<|end search queries|>`;
const turnOf = (request: RecordedRequest): number => Number(/Turn: (\d+)\//.exec(request.body?.messages?.[0]?.content ?? '')?.[1] ?? 0);

function threeTurns(request: RecordedRequest): ScriptedReply {
  switch (turnOf(request)) {
    case 1:
      return { content: Q('who designed Harrow Point Light; Harrow Point Light engineer') };
    case 2:
      return { content: Q('Edmund Carrow scholarship college; Fennick College founded') };
    default:
      return { content: 'Fennick College was founded by her: \\boxed{Margery Fennick}' };
  }
}
