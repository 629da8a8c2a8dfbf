import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';

const qrelsFile = path.join(import.meta.dirname, '../sample-data/meridian/qrels/test.tsv');

async function loadSample(page: Page) {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Start with the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
}

async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

/**
 * Another system's run, made from the BM25 run: for even-numbered queries a relevant document is moved to the top
 * (wins or ties), for odd-numbered ones the top 20 is reversed (losses). Plus a malformed line and an unknown query.
 */
function otherSystemRun(trec: string): string {
  const relevant = new Map<string, string>();
  for (const line of fs.readFileSync(qrelsFile, 'utf8').split('\n').slice(1)) {
    const [q, d, rel] = line.trim().split(/\s+/);
    if (q && Number(rel) > 0 && !relevant.has(q)) relevant.set(q, d!);
  }
  const byQuery = new Map<string, string[]>();
  for (const line of trec.trim().split('\n')) {
    const [q, , d] = line.split(' ');
    if (!byQuery.has(q!)) byQuery.set(q!, []);
    byQuery.get(q!)!.push(d!);
  }
  const out: string[] = [];
  [...byQuery.entries()].forEach(([q, docs], i) => {
    let order = docs;
    if (i % 2 === 0 && relevant.has(q)) order = [relevant.get(q)!, ...docs.filter((d) => d !== relevant.get(q))];
    else order = [...docs.slice(0, 20).reverse(), ...docs.slice(20)];
    order.forEach((d, r) => out.push(`${q} Q0 ${d} ${r + 1} ${order.length - r} other`));
    if (i === 1) out.push('this line is malformed');
  });
  out.push('zz-unknown Q0 m001 1 1 other');
  return `${out.join('\n')}\n`;
}

test('run BM25 over the query set, import a TREC run, compare them, download the CSV; runs survive a reload', async ({ page }) => {
  await loadSample(page);
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByLabel('Corpus')).toHaveValue(/.+/);

  // Run BM25 over the sample's query set.
  await page.getByLabel('Run name').fill('BM25 baseline');
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText(/Saved “BM25 baseline”: \d+ queries in [\d.]+ s · nDCG@10 0\.\d{4}/);
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(1);
  const bm25Row = rows.filter({ hasText: 'BM25 baseline' });
  await expect(bm25Row).toContainText('BM25 k1=0.9 b=0.4');
  await expect(bm25Row.locator('td[data-measure="nDCG@10"]')).toHaveText(/^0\.\d{4}$/);

  // Its details: configuration and versions.
  await bm25Row.getByRole('button', { name: 'BM25 baseline' }).click();
  const details = page.getByRole('region', { name: 'Run details' });
  await expect(details).toContainText(/workbench \d+\.\d+\.\d+/);
  await details.getByText('Configuration (JSON)').click();
  await expect(details.getByTestId('run-config')).toContainText('"stemming": "porter"');
  await details.getByRole('button', { name: 'Close details' }).click();

  // Export it as TREC, make "another system's" run from it, import that.
  const trec = await downloadText(page, () => bm25Row.getByRole('button', { name: 'TREC' }).click());
  expect(trec.name).toBe('BM25 baseline.trec');
  expect(trec.text).toMatch(/^\S+ Q0 m\d+ 1 [\d.]+ BM25_baseline\n/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-runs-'));
  const otherFile = path.join(dir, 'other-system.run');
  fs.writeFileSync(otherFile, otherSystemRun(trec.text));
  await page.getByLabel('Import a TREC run file').setInputFiles(otherFile);
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('Imported “other-system” from other-system.run');
  await expect(report).toContainText('zz-unknown');
  await expect(report.getByRole('list', { name: 'Skipped lines' })).toContainText(/line \d+: expected 6 fields/);
  await expect(rows).toHaveCount(2);

  // Compare the two.
  await page.getByRole('link', { name: 'Compare' }).click();
  await expect(page.getByLabel('Baseline', { exact: true })).toHaveValue(/.+/);
  await expect(page.getByLabel('Baseline', { exact: true }).locator('option:checked')).toHaveText(/BM25 baseline/);
  await page.getByRole('button', { name: 'Compare 1 run(s) with the baseline' }).click();
  const comparisonRows = page.getByTestId('comparison-row');
  await expect(comparisonRows).toHaveCount(5);
  await expect(comparisonRows.first()).toContainText('other-system');
  await expect(comparisonRows.first()).toContainText(/nDCG@10\s*0\.\d{4}.*0\.\d{4}\s*[+−]0\.\d{4}\s*\d+ \/ \d+ \/ \d+\s*0\.\d{4}/);
  await expect(page.getByTestId('significance-legend')).toContainText('† p < 0.05, ‡ p < 0.01');
  await expect(page.getByTestId('significance-legend')).toContainText('10,000 permutations, seed 42');

  // Per-query table, sorted by delta (descending first).
  await page.getByRole('button', { name: 'Δ', exact: true }).click();
  const deltas = (await page.getByTestId('per-query-row').locator('td:nth-child(5)').allTextContents()).map((t) => Number(t.replace('−', '-')));
  expect(deltas.length).toBeGreaterThan(10);
  expect(deltas).toEqual([...deltas].sort((a, b) => b - a));
  expect(deltas[0]).toBeGreaterThan(0);
  expect(deltas.at(-1)).toBeLessThan(0);

  // One query's rankings side by side.
  await page.getByTestId('per-query-row').first().getByRole('button').click();
  const sideBySide = page.getByRole('region', { name: 'Rankings side by side' });
  await expect(sideBySide.getByRole('list', { name: 'Baseline ranking' }).getByRole('listitem')).toHaveCount(20);
  await expect(sideBySide.getByRole('list', { name: 'Run ranking' }).getByRole('listitem')).toHaveCount(20);
  await expect(sideBySide.getByRole('list', { name: 'Run ranking' }).getByRole('listitem').first()).toHaveAttribute('data-relevance', /^[1-9]/);

  // The comparison table as CSV.
  const csv = await downloadText(page, () => page.getByRole('button', { name: 'Download CSV', exact: true }).click());
  expect(csv.name).toBe('comparison-BM25 baseline.csv');
  const lines = csv.text.split('\r\n');
  expect(lines[0]).toBe('baseline,run,measure,mean,baseline_mean,delta,wins,ties,losses,p_value,significance,p_holm,significant_holm,queries,permutations,seed');
  expect(lines.filter(Boolean)).toHaveLength(6);
  expect(lines[1]).toMatch(/^BM25 baseline,other-system,nDCG@10,/);

  // The runs are kept.
  await page.reload();
  await page.goto('/#/runs');
  await expect(page.getByTestId('run-row')).toHaveCount(2);
});

test('runs can be renamed, exported as JSON, re-imported, and deleted', async ({ page }) => {
  await loadSample(page);
  await page.goto('/#/runs');
  await page.getByLabel('Results per query (k)').fill('50');
  await page.getByLabel('BM25 k1').fill('1.2');
  await page.getByRole('button', { name: /^Run over \d+ queries$/ }).click();
  await expect(page.getByTestId('run-done')).toContainText('Saved “BM25 k1=1.2 b=0.4”');
  const row = page.getByTestId('run-row').first();
  await row.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('New run name').fill('Tuned');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('button', { name: 'Tuned' })).toBeVisible();

  const json = await downloadText(page, () => row.getByRole('button', { name: 'JSON' }).click());
  expect(json.name).toBe('Tuned.json');
  const file = JSON.parse(json.text);
  expect(file.run.pipeline).toEqual({ kind: 'bm25', params: { k1: 1.2, b: 0.4, d: 0, termCountBoost: false } });
  expect(file.run.k).toBe(50);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-runs-'));
  fs.writeFileSync(path.join(dir, 'Tuned.json'), json.text);
  await page.getByLabel('Import a JSON run').setInputFiles(path.join(dir, 'Tuned.json'));
  await expect(page.getByTestId('import-report')).toContainText('Imported “Tuned” from Tuned.json');
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(2);
  const values = await rows.locator('td[data-measure="nDCG@10"]').allTextContents();
  expect(values[0]).toBe(values[1]);

  // A broken JSON file is refused with the field named.
  fs.writeFileSync(path.join(dir, 'broken.json'), json.text.replace('"k": 50', '"k": "fifty"'));
  await page.getByLabel('Import a JSON run').setInputFiles(path.join(dir, 'broken.json'));
  await expect(page.getByTestId('import-report')).toContainText('Could not import broken.json: Field "run.k" must be a positive whole number');

  page.on('dialog', (dialog) => dialog.accept());
  await rows.first().getByRole('button', { name: 'Delete' }).click();
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('run-row')).toHaveCount(1);
});
