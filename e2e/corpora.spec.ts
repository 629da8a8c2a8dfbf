import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { storedDocumentCount } from './support.ts';

const fixtures = path.join(import.meta.dirname, 'fixtures');

async function openCorpora(page: Page) {
  await page.goto('/#/corpora');
  await expect(page.getByRole('heading', { name: 'Load a corpus' })).toBeVisible();
}

async function search(page: Page, query: string) {
  await page.getByLabel('Query').fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('a BEIR folder is loaded through the folder chooser, searched, kept across a reload, and deleted', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose a folder').setInputFiles(path.join(fixtures, 'tiny-beir'));
  await expect(page.getByLabel('Load options')).toContainText('a BEIR collection');
  await page.getByLabel('Corpus name').fill('Mills');
  await page.getByRole('button', { name: 'Load', exact: true }).click();

  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('Loaded “Mills”');
  await expect(summary).toContainText('4 documents, 2 queries, 3 relevance judgements');
  await expect(summary).toContainText('Nothing was skipped');

  const item = page.getByTestId('corpus-item').filter({ hasText: 'Mills' });
  await item.getByRole('button', { name: 'Search' }).click();
  await search(page, 'tidal wheel');
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem').first()).toContainText('Tidal mills');
  await expect(results.locator('mark').first()).toHaveText(/tidal|wheel/i);

  // A reload restores the index from IndexedDB instead of re-indexing.
  await page.reload();
  await page.getByRole('button', { name: 'Search', exact: true }).first().waitFor();
  await page.goto('/#/search');
  await expect(page.getByLabel('Corpus')).toHaveValue(/.+/);
  await search(page, 'overshot buckets');
  await expect(results.getByRole('listitem').first()).toContainText('Water wheels');
  await expect(page.getByTestId('search-stats')).toContainText('index restored from storage');

  // The document viewer shows the whole text.
  await results.getByRole('button', { name: 'Water wheels' }).click();
  await expect(page.getByRole('dialog')).toContainText('driven by the weight of water');
  await page.getByRole('button', { name: 'Close document' }).click();

  await page.goto('/#/corpora');
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByTestId('corpus-item').filter({ hasText: 'Mills' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('corpus-item').filter({ hasText: 'Mills' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('No corpus yet')).toBeVisible();
});

test('the sample corpus is offered on first run, loads in one click and can be renamed', async ({ page }) => {
  await openCorpora(page);
  await expect(page.getByText('No corpus yet')).toBeVisible();
  await page.getByRole('button', { name: 'Start with the sample corpus' }).click();
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('Loaded “Meridian Coast (sample)”');
  await expect(summary).toContainText(/\d{3} documents, \d{2} queries/);
  const item = page.getByTestId('corpus-item').first();
  await expect(item).toContainText('questions with answers');
  await item.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('New name').fill('Meridian');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(item.locator('.corpus-name')).toHaveText('Meridian');
  await page.reload();
  await expect(page.getByTestId('corpus-item').first().locator('.corpus-name')).toHaveText('Meridian');
});

test('a file with bad lines lists each with its line and reason and keeps the good lines', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose files').setInputFiles(path.join(fixtures, 'bad-lines.jsonl'));
  await expect(page.getByLabel('text field')).toHaveValue('body');
  await expect(page.getByLabel('id field')).toHaveValue('id');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('3 documents');
  const issues = summary.getByRole('table', { name: 'Skipped input' });
  await expect(issues.getByRole('row')).toHaveCount(5); // header + 4 problems
  await expect(issues.getByRole('row', { name: /bad-lines\.jsonl 3 .*JSON/i })).toBeVisible();
  await expect(issues.getByRole('row', { name: /bad-lines\.jsonl 4/ })).toContainText(/id/);
  await expect(issues.getByRole('row', { name: /bad-lines\.jsonl 5/ })).toContainText(/text/);
  await expect(issues.getByRole('row', { name: /bad-lines\.jsonl 6/ })).toContainText(/duplicate/i);
  await page.goto('/#/search');
  await search(page, 'lock keeper gates');
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem').first()).toContainText('Good three');
});

test('a large load shows progress with a rate and can be cancelled without leaving anything behind', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-e2e-'));
  const file = path.join(dir, 'big.jsonl');
  const words = 'estuary harbour tide lock barge ferry crane timber salt mill wind water'.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < 120_000; i++) {
    const text = Array.from({ length: 30 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
    lines.push(JSON.stringify({ _id: `doc${i}`, title: `Doc ${i}`, text }));
  }
  fs.writeFileSync(file, lines.join('\n'));

  await openCorpora(page);
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const progress = page.getByTestId('load-progress');
  await expect(progress).toContainText(/[1-9][\d,]* documents · [\d,]+ docs\/s/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status')).toContainText('was cancelled; nothing of it was kept');
  await page.reload();
  await expect(page.getByText('No corpus yet')).toBeVisible();

  // A tab closed mid-load leaves no half-written corpus behind.
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(progress).toContainText(/[1-9][\d]*,\d{3} documents/); // over 1,000: batches of 500 are stored
  const context = page.context();
  await page.close();
  const next = await context.newPage();
  await next.goto('/#/corpora');
  await expect(next.getByText('No corpus yet')).toBeVisible();
  expect(await storedDocumentCount(next)).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a CSV file dropped on the page is mapped and loaded; Markdown files are split into passages', async ({ page }) => {
  await openCorpora(page);
  const csv = 'doc,heading,body\nc1,Quay,"The quay was rebuilt in stone, with ""iron"" rings"\nc2,Granary,Grain was stored above the flood line\n';
  await page.getByTestId('drop-zone').evaluate((zone, content) => {
    const data = new DataTransfer();
    data.items.add(new File([content], 'harbour.csv', { type: 'text/csv' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, csv);
  await page.getByLabel('id field').selectOption('doc');
  await page.getByLabel('title field').selectOption('heading');
  await page.getByLabel('text field').selectOption('body');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('2 documents');
  await page.getByRole('button', { name: 'Close' }).click();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-md-'));
  const words = Array.from({ length: 25 }, (_, i) => `word${i}`).join(' ');
  fs.writeFileSync(path.join(dir, 'notes.md'), `# Tide notes\n\n${words}\n`);
  await page.getByLabel('Choose files').setInputFiles(path.join(dir, 'notes.md'));
  await page.getByText('split into passages of').click();
  await page.getByLabel('Passage size in words').fill('10');
  await page.getByLabel('Passage overlap in words').fill('2');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  // 28 whitespace-separated words ("#", "Tide", "notes", word0…word24) in windows of 10 that step by 8:
  // [0,10) [8,18) [16,26) [24,28) → 4 passages
  await expect(page.getByTestId('load-summary')).toContainText('4 documents');
  await page.goto('/#/search');
  await page.getByLabel('Corpus').selectOption({ label: 'notes' });
  await search(page, 'word12');
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem').first()).toContainText('Tide notes');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a corpus deleted in one tab disappears from the others, which say so instead of searching it', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose a folder').setInputFiles(path.join(fixtures, 'tiny-beir'));
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('4 documents');

  const other = await page.context().newPage();
  await other.goto('/#/search');
  await search(other, 'tidal');
  await expect(other.getByRole('list', { name: 'Results' }).getByRole('listitem').first()).toContainText('Tidal mills');

  page.once('dialog', (dialog) => dialog.accept());
  await page.getByTestId('corpus-item').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No corpus yet')).toBeVisible();
  // The other tab hears of it and stops offering the corpus.
  await expect(other.getByText('There is no corpus to search yet')).toBeVisible();
});
