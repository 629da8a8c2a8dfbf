// Vectors made outside the tab (dsw embed, a dsw --vector-cache folder, a dsw serve --model server) imported into a
// browser corpus: checked against the corpus and the model (a sample re-embedded here), stored as an embedding set,
// and searched.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loadSample } from './support.ts';

const root = path.join(import.meta.dirname, '..');
const dsw = (...args: string[]) => execFileSync(process.execPath, [path.join(root, 'bin/dsw.mjs'), ...args], { cwd: root, stdio: 'pipe' });

let dir: string;
test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-import-vectors-'));
  dsw('embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', path.join(dir, 'vectors.npy'));
  dsw('embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', path.join(dir, 'vectors.jsonl'));
  dsw('embed', '--dataset', 'sample-data/meridian', '--model', 'public/models/tiny-bert', '--out', path.join(dir, 'vectors.safetensors'));
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function openEmbeddings(page: Page) {
  await loadSample(page);
  await page.goto('/#/embeddings');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('tiny-bert');
}

test('a .npy with its ids file made by dsw embed is checked, stored as the set of the chosen model, and searched', async ({ page }) => {
  await openEmbeddings(page);
  const panel = page.getByRole('region', { name: 'Import vectors' });
  await panel.getByLabel('Choose vector files').setInputFiles([path.join(dir, 'vectors.npy'), path.join(dir, 'vectors.ids.txt')]);
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const done = panel.getByTestId('import-done');
  await expect(done).toContainText('Imported 168 vectors from vectors.npy with vectors.ids.txt as tiny-bert', { timeout: 60_000 });
  await expect(done).toContainText(/Checked 8 documents re-embedded here: lowest cosine (0\.999\d|1\.0000)\./);
  const set = page.getByTestId('embedding-set');
  await expect(set).toContainText('168 ✓');
  await expect(set).toContainText('imported (vectors.npy with vectors.ids.txt)');

  await set.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByLabel('Pipeline', { exact: true })).toHaveValue('dense');
  await page.getByLabel('Query').fill('lighthouse keeper');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(10);
  await expect(page.getByTestId('search-models')).toContainText('tiny-bert (fp32, mean pooling, 32 dims');
  await expect(page.getByTestId('search-stats')).toContainText('168 vectors of tiny-bert restored from storage');
});

test('vectors that do not match the model are refused with the cosine, and nothing is stored', async ({ page }) => {
  // The same lines with each vector given to the next document: ids and dimension are right, the vectors are not.
  const lines = fs.readFileSync(path.join(dir, 'vectors.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; vector: number[] });
  const shifted = lines.map((l, i) => JSON.stringify({ id: l.id, vector: lines[(i + 1) % lines.length]!.vector }));
  fs.writeFileSync(path.join(dir, 'shifted.jsonl'), [...shifted, '{"id": "nope", "vector": [1]}', 'not json'].join('\n'));
  await openEmbeddings(page);
  const panel = page.getByRole('region', { name: 'Import vectors' });
  await panel.getByLabel('Choose vector files').setInputFiles(path.join(dir, 'shifted.jsonl'));
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const error = panel.getByTestId('import-error');
  await expect(error).toContainText(/shifted\.jsonl: the vector of m\d+ has cosine -?0\.\d{4} to tiny-bert .* \(needs ≥ 0\.999, 8 documents checked\)/, { timeout: 60_000 });
  await expect(error).toContainText('Nothing was stored.');
  await expect(page.getByText('None yet.')).toBeVisible();

  // A file of another width is refused before any check.
  fs.writeFileSync(path.join(dir, 'narrow.jsonl'), lines.map((l) => JSON.stringify({ id: l.id, vector: l.vector.slice(0, 16) })).join('\n'));
  await panel.getByRole('button', { name: 'OK' }).click();
  await panel.getByLabel('Choose vector files').setInputFiles(path.join(dir, 'narrow.jsonl'));
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(panel.getByTestId('import-error')).toContainText('narrow.jsonl: vectors of 16 dimensions, but tiny-bert makes 32; choose the model that made them.');
});

test('a dsw --vector-cache folder is imported', async ({ page }) => {
  const cache = path.join(dir, 'cache');
  fs.mkdirSync(cache);
  dsw('run', '--dataset', 'sample-data/meridian', '--pipeline', 'dense', '--model', 'public/models/tiny-bert', '--vector-cache', cache, '--out', path.join(dir, 'dense.trec'));
  await openEmbeddings(page);
  const panel = page.getByRole('region', { name: 'Import vectors' });
  await panel.getByLabel('Choose a vector-cache folder').setInputFiles(cache);
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(panel.getByTestId('import-done')).toContainText(/Imported 168 vectors from [0-9a-f]+\.json \(dsw vector cache\) as tiny-bert/, { timeout: 60_000 });
  await expect(page.getByTestId('embedding-set')).toContainText('168 ✓');
});

test('a .safetensors made by dsw embed carries its ids in its header and is imported alone', async ({ page }) => {
  await openEmbeddings(page);
  const panel = page.getByRole('region', { name: 'Import vectors' });
  await expect(panel).toContainText('__metadata__.ids');
  await panel.getByLabel('Choose vector files').setInputFiles(path.join(dir, 'vectors.safetensors'));
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const done = panel.getByTestId('import-done');
  await expect(done).toContainText('Imported 168 vectors from vectors.safetensors (ids in its header) as tiny-bert', { timeout: 60_000 });
  await expect(done).toContainText(/lowest cosine (0\.999\d|1\.0000)\./);
  await expect(page.getByTestId('embedding-set')).toContainText('168 ✓');
});

test('vectors embedded by a dsw serve --model server: batches with progress, the sample checked, stored and searched', async ({ page, baseURL }) => {
  // Another dataset on the server: only its model matters, the corpus's texts are sent.
  const serve = spawn(
    process.execPath,
    [path.join(root, 'bin/dsw.mjs'), 'serve', '--dataset', 'e2e/fixtures/tiny-beir', '--model', 'public/models/tiny-bert', '--port', '0', '--allow-origin', new URL(baseURL!).origin],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    let stderr = '';
    serve.stderr!.on('data', (chunk) => (stderr += chunk));
    const server = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dsw serve did not start in 60 s: ${stderr}`)), 60_000);
      serve.stdout!.on('data', (chunk) => {
        const url = /on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1\//.exec(String(chunk))?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
      serve.once('exit', (code) => reject(new Error(`dsw serve exited with ${code}: ${stderr}`)));
    });
    await openEmbeddings(page);
    const panel = page.getByRole('region', { name: 'Import vectors' });
    await expect(panel).toContainText('dsw serve --dataset <folder> --model <model> --allow-origin');
    await panel.getByLabel('Server address').fill(server);
    await panel.getByRole('button', { name: 'Embed on the server' }).click();
    await expect(panel.getByTestId('import-progress')).toContainText(/Embedding on the server: [\d,]+ of 168 documents|Loading|Asking/);
    const done = panel.getByTestId('import-done');
    await expect(done).toContainText(`Imported 168 vectors from dsw serve at ${server} as tiny-bert`, { timeout: 60_000 });
    await expect(done).toContainText(/Checked 8 documents re-embedded here: lowest cosine (0\.999\d|1\.0000)\./);
    const set = page.getByTestId('embedding-set');
    await expect(set).toContainText('168 ✓');
    await expect(set).toContainText(`dsw serve at ${server} (tiny-bert)`);
    // Every document went to the server (8 to check first, the rest in batches).
    expect(stderr.split('\n').filter((l) => l.includes('/embed') && l.includes('"status":200')).length).toBeGreaterThanOrEqual(2);

    await set.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Query').fill('lighthouse keeper');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(10);
  } finally {
    serve.kill('SIGTERM');
  }
});

test('a server address where nothing listens is explained, and nothing is stored', async ({ page }) => {
  await openEmbeddings(page);
  const panel = page.getByRole('region', { name: 'Import vectors' });
  await panel.getByLabel('Server address').fill('http://127.0.0.1:9');
  await panel.getByRole('button', { name: 'Embed on the server' }).click();
  await expect(panel.getByTestId('import-error')).toContainText('Cannot reach the workbench server at http://127.0.0.1:9');
  await expect(page.getByText('None yet.')).toBeVisible();
});
