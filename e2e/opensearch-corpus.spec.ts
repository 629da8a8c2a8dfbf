// A corpus indexed in a real OpenSearch node (dsw index) and served by `dsw serve --opensearch`: the browser
// connects as to any workbench server and searches, runs a query set, sweeps GQR and runs Deep search on it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenSearch, stopOpenSearch } from '../scripts/opensearch/opensearch.mjs';
import { OpenAiTestServer, type RecordedRequest, type ScriptedReply } from '../src/test-support/openai-test-server.ts';

const root = path.join(import.meta.dirname, '..');
const SERVE_PORT = Number(process.env.E2E_SERVE_PORT ?? 8792);
const SERVER = `http://127.0.0.1:${SERVE_PORT}`;
const APP_ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;
const INDEX = 'dsw-e2e-meridian';
const OPENSEARCH_PORT = Number(process.env.DSW_OPENSEARCH_PORT ?? 9200);

let serve: ChildProcess | null = null;
let opensearch = process.env.DSW_OPENSEARCH_URL?.replace(/\/+$/, '') ?? '';
let startedHere = false;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  if (!opensearch) {
    const started = await startOpenSearch({ port: OPENSEARCH_PORT });
    opensearch = started.url;
    startedHere = !started.reused;
  }
  const dsw = path.join(root, 'bin/dsw.mjs');
  const index = spawnSync(process.execPath, [dsw, 'index', '--dataset', 'sample-data/meridian', '--opensearch', opensearch, '--index', INDEX, '--model', 'public/models/tiny-bert', '--replace'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (index.status !== 0) throw new Error(`dsw index failed: ${index.stderr}`);
  serve = spawn(process.execPath, [dsw, 'serve', '--opensearch', opensearch, '--index', INDEX, '--model', 'public/models/tiny-bert', '--port', String(SERVE_PORT), '--allow-origin', APP_ORIGIN], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

test.afterAll(async () => {
  serve?.kill('SIGTERM');
  if (startedHere) await stopOpenSearch({ port: OPENSEARCH_PORT });
});

async function search(page: Page, query: string) {
  await page.getByLabel('Query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('a cluster-backed corpus: search, a query-set run, a GQR sweep and Deep search through dsw serve --opensearch', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/#/corpora');
  const panel = page.getByRole('region', { name: 'Connect to a workbench server' });
  await panel.getByLabel('Server address').fill(SERVER);
  await panel.getByRole('button', { name: 'Check connection' }).click();
  await expect(panel.getByRole('status').first()).toContainText(`Connected to ${SERVER}: it serves one corpus.`);
  await expect(panel.getByTestId('served-corpus')).toContainText('168 documents · 54 queries');
  await expect(panel.getByTestId('served-corpus')).toContainText('vectors: tiny-bert');
  await panel.getByRole('button', { name: 'Add “meridian”' }).click();
  await expect(page.getByTestId('corpus-item')).toContainText(`served by ${SERVER}`);

  // Search: BM25 and dense run by OpenSearch; documents read from the index.
  await page.goto('/#/search');
  await search(page, 'lighthouse keeper rescues shipwrecked sailors in a storm');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-stats')).toContainText(`Searched on ${SERVER}`);
  await expect(results.getByRole('listitem').first()).toContainText(/m\d{3} · score \d+\.\d{4}(?: ✓ relevant \(\d+\))?\S/);
  await page.getByLabel('Pipeline', { exact: true }).selectOption('dense');
  await search(page, 'history of the tea trade in Port Avel');
  await expect(results.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert');

  // Runs: the corpus's query set (stored in the side index), scored against its qrels; the run says where it ran.
  await page.goto('/#/runs');
  await page.getByLabel('Run name').fill('Cluster BM25');
  await page.getByRole('button', { name: 'Run over 54 queries' }).click();
  await expect(page.getByTestId('run-done')).toContainText(/Saved “Cluster BM25”: 54 queries in [\d.]+ s · nDCG@10 0\.\d{4}/);
  await page.getByTestId('run-row').getByRole('button', { name: 'Cluster BM25' }).click();
  const details = page.getByRole('region', { name: 'Run details' });
  await details.getByText('Configuration (JSON)').click();
  await expect(details.getByTestId('run-config')).toContainText('"engine": "opensearch"');
  await expect(details.getByTestId('run-config')).toContainText(`"index": "${INDEX}"`);
  await details.getByRole('button', { name: 'Close details' }).click();

  // The GQR lab: children and pooled vectors fetched from the cluster, re-ranked here.
  await page.goto('/#/gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5, 1');
  await page.getByLabel('Sweep name').fill('Cluster α');
  await page.getByRole('button', { name: /^Run sweep: \d+ grid points × 54 queries/ }).click();
  await expect(page.getByTestId('sweep-summary')).toContainText('× 54 queries');
  await expect(page.getByTestId('best-point')).toContainText(/Best: nDCG@10 0\.\d{4}/);
  await page.getByRole('button', { name: 'Inspect q01' }).click();
  await expect(page.getByTestId('inspector-path')).toContainText('single-vector cosine');

  // Deep search against the loopback OpenAI server, searching the cluster corpus.
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
