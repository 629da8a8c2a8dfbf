import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { loadAndEmbedSample, tinyModelFolder } from './support.ts';

const root = path.join(import.meta.dirname, '..');
const run = promisify(execFile);

async function runInBrowser(page: Page, pipeline: 'bm25' | 'dense', name: string) {
  await page.goto('/#/runs');
  await page.getByLabel('Pipeline', { exact: true }).selectOption(pipeline);
  await page.getByLabel('Run name').fill(name);
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(`Saved “${name}”`, { timeout: 60_000 });
}

async function download(page: Page, click: () => Promise<void>, dir: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const target = path.join(dir, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

test('a recipe exported from a browser run is made again by dsw run --recipe and by the Runs page, with the same metrics', async ({ page }) => {
  test.setTimeout(420_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-recipes-'));
  await loadAndEmbedSample(page, { embedTimeout: 180_000 });
  await runInBrowser(page, 'bm25', 'bm25 sample');
  await runInBrowser(page, 'dense', 'dense sample');

  for (const name of ['bm25 sample', 'dense sample']) {
    const row = page.getByTestId('run-row').filter({ hasText: name });
    const recipeFile = await download(page, () => row.getByRole('button', { name: 'Recipe' }).click(), dir);
    const recipe = JSON.parse(fs.readFileSync(recipeFile, 'utf8'));
    expect(recipe).toMatchObject({ format: 'dsw-recipe', version: 1, experiment: { kind: 'run' }, corpus: { documentCount: 168 } });
    expect(recipe.corpus.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(recipe.environment.host.kind).toBe('browser');
    if (name.startsWith('dense')) expect(recipe.models[0].files.map((f: { path: string }) => f.path)).toContain('onnx/model.onnx');

    // The same recipe in Node, on the sample corpus's files and the same model folder.
    const out = path.join(dir, `${name}.cli.json`);
    await run(process.execPath, ['bin/dsw.mjs', 'run', '--recipe', recipeFile, '--dataset', 'sample-data/meridian', '--model', tinyModelFolder, '--save-json', out], { cwd: root });
    const cli = JSON.parse(fs.readFileSync(out, 'utf8')).run;
    expect(cli.environment.host.kind).toBe('node');
    expect(Object.keys(recipe.metrics).length).toBeGreaterThan(0);
    for (const [measure, value] of Object.entries(recipe.metrics as Record<string, number>)) expect(Math.abs(cli.metrics.aggregate[measure] - value)).toBeLessThan(1e-9);
    for (const [queryId, values] of Object.entries(cli.metrics.perQuery as Record<string, Record<string, number>>)) {
      expect(Object.keys(values).length, queryId).toBeGreaterThan(0);
    }

    // And again in the app: the recipe matches this corpus and reproduces the metrics.
    await page.getByLabel('Import a recipe').setInputFiles(recipeFile);
    await expect(page.getByTestId('recipe-check')).toContainText('match the recipe');
    await page.getByRole('button', { name: 'Run this recipe' }).click();
    await expect(page.getByTestId('run-done')).toContainText(`Saved “${name} (re-run)”`, { timeout: 60_000 });
    const again = page.getByTestId('run-row').filter({ hasText: `${name} (re-run)` });
    const original = page.getByTestId('run-row').filter({ hasText: name }).filter({ hasNotText: 're-run' });
    await expect(again.locator('td[data-measure="nDCG@10"]')).toHaveText((await original.locator('td[data-measure="nDCG@10"]').textContent())!);
  }

  // A recipe from another corpus says what differs; a foreign file says what it is.
  const recipeFile = path.join(dir, 'bm25 sample.recipe.json');
  const changed = JSON.parse(fs.readFileSync(recipeFile, 'utf8'));
  changed.corpus.documentCount = 170;
  changed.corpus.analyzer.stemming = 'none';
  fs.writeFileSync(path.join(dir, 'other.recipe.json'), JSON.stringify(changed));
  await page.getByLabel('Import a recipe').setInputFiles(path.join(dir, 'other.recipe.json'));
  await expect(page.getByTestId('recipe-differences')).toContainText("The recipe's corpus has 170 documents; this one has 168.");
  await expect(page.getByTestId('recipe-differences')).toContainText('another analyzer');
  fs.writeFileSync(path.join(dir, 'foreign.json'), JSON.stringify({ format: 'dsw-run', formatVersion: 1 }));
  await page.getByLabel('Import a recipe').setInputFiles(path.join(dir, 'foreign.json'));
  await expect(page.getByTestId('recipe-check')).toContainText('This JSON file is a "dsw-run" file, not a workbench recipe');
});

test('a sweep recipe exported from the GQR lab is made again by dsw sweep --recipe and by the lab, with the same point scores', async ({ page }) => {
  test.setTimeout(420_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-sweep-recipes-'));
  await loadAndEmbedSample(page, { embedTimeout: 180_000 });
  await page.goto('/#/gqr');
  await expect(page.getByLabel('Embedding set')).toHaveValue(/tiny-bert/);
  await page.getByLabel('Grid mixtureAlpha').fill('0, 0.5');
  await page.getByLabel('Grid target').fill('');
  await page.getByLabel('Sweep name').fill('α pair');
  await page.getByRole('button', { name: /^Run sweep: 2 grid points × 54 queries/ }).click();
  const results = page.getByRole('region', { name: 'Sweep results' });
  await expect(results.getByRole('heading', { name: 'α pair' })).toBeVisible({ timeout: 120_000 });
  const wins = page.getByRole('table', { name: 'Wins, ties and losses against the primary' });
  const original = await wins.locator('tbody tr').allTextContents();
  const originalPrimary = (await page.getByTestId('wins-primary').textContent())!;

  const recipeFile = await download(page, () => results.getByRole('button', { name: 'Recipe' }).click(), dir);
  const recipe = JSON.parse(fs.readFileSync(recipeFile, 'utf8'));
  expect(recipe).toMatchObject({ format: 'dsw-recipe', experiment: { kind: 'sweep', pipeline: { kind: 'gqr' }, axes: [{ key: 'mixtureAlpha', values: [0, 0.5] }] } });
  const pointMetrics = recipe.experiment.pointMetrics as Record<string, Record<string, number>>;
  expect(Object.keys(pointMetrics)).toEqual(['mixtureAlpha=0', 'mixtureAlpha=0.5']);

  // The same sweep in Node, on the sample corpus's files and the same model folder.
  const { stdout, stderr } = await run(process.execPath, ['bin/dsw.mjs', 'sweep', '--recipe', recipeFile, '--dataset', 'sample-data/meridian', '--model', tinyModelFolder, '--json'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const cli = JSON.parse(stdout) as { points: { id: string; measures: Record<string, number> }[] };
  expect(cli.points.map((p) => p.id)).toEqual(['mixtureAlpha=0', 'mixtureAlpha=0.5']);
  for (const point of cli.points) expect(Math.abs(point.measures['nDCG@10']! - pointMetrics[point.id]!['nDCG@10']!), point.id).toBeLessThan(1e-9);
  expect(stderr).toContain('Reproduced “α pair”');

  // And again in the lab: the recipe matches this corpus, and the re-run scores every point as the original did.
  await page.getByLabel('Import a sweep recipe').setInputFiles(recipeFile);
  await expect(page.getByTestId('sweep-recipe-check')).toContainText('match the recipe');
  await page.getByRole('button', { name: 'Run this sweep recipe' }).click();
  await expect(results.getByRole('heading', { name: 'α pair (re-run)' })).toBeVisible({ timeout: 120_000 });
  await expect(wins.locator('tbody tr')).toHaveText(original);
  await expect(page.getByTestId('wins-primary')).toHaveText(originalPrimary);

  // A recipe of another corpus lists what differs; a run recipe is sent to the Runs page.
  recipe.corpus.documentCount = 170;
  fs.writeFileSync(path.join(dir, 'other.recipe.json'), JSON.stringify(recipe));
  await page.getByLabel('Import a sweep recipe').setInputFiles(path.join(dir, 'other.recipe.json'));
  await expect(page.getByTestId('sweep-recipe-differences')).toContainText("The recipe's corpus has 170 documents; this one has 168.");
  recipe.experiment = { kind: 'run', pipeline: { kind: 'bm25' }, k: 10, measures: ['nDCG@10'] };
  fs.writeFileSync(path.join(dir, 'run.recipe.json'), JSON.stringify(recipe));
  await page.getByLabel('Import a sweep recipe').setInputFiles(path.join(dir, 'run.recipe.json'));
  await expect(page.getByTestId('sweep-recipe-check')).toContainText('This is a run recipe; re-run it on the Runs page');
});
