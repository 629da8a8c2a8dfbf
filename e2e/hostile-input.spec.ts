import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, Zip, ZipDeflate } from 'fflate';

const tinyBeir = path.join(import.meta.dirname, 'fixtures', 'tiny-beir');

async function openCorpora(page: Page) {
  await page.goto('/#/corpora');
  await expect(page.getByRole('heading', { name: 'Load a corpus' })).toBeVisible();
}

function tempFile(name: string, content: string | Uint8Array): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-hostile-')), name);
  fs.writeFileSync(file, content);
  return file;
}

/** A zip holding corpus.jsonl: two documents, then `blankBytes` of blank lines. */
function blankLineBomb(blankBytes: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    parts.push(data);
  });
  const entry = new ZipDeflate('corpus.jsonl', { level: 9 });
  zip.add(entry);
  entry.push(strToU8('{"id":"d1","text":"tidal mills"}\n{"id":"d2","text":"water wheels"}\n'), false);
  const block = new Uint8Array(1024 * 1024).fill(10);
  for (let left = blankBytes; left > 0; left -= block.length) entry.push(block.subarray(0, Math.min(block.length, left)), left <= block.length);
  zip.end();
  return Buffer.concat(parts);
}

test('files of a BEIR set chosen one by one (no folder paths) keep their qrels', async ({ page }) => {
  await openCorpora(page);
  await page
    .getByLabel('Choose files')
    .setInputFiles([path.join(tinyBeir, 'corpus.jsonl'), path.join(tinyBeir, 'queries.jsonl'), path.join(tinyBeir, 'qrels/test.tsv')]);
  await expect(page.getByLabel('Load options')).toContainText('a BEIR collection');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('4 documents, 2 queries, 3 relevance judgements');
  await expect(summary).toContainText('Nothing was skipped');
});

test('a load in which no document survives lists every problem with file, line, field and reason', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose files').setInputFiles(tempFile('docs.jsonl', '{"id":"a b","text":"x"}\n{"id":"d2","text":"  "}\n{broken\n'));
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('No document could be loaded: all 3 problems are listed below.');
  const rows = alert.getByRole('table', { name: 'Skipped input' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText(/docs\.jsonl\s*1\s*id\s*document id 'a b' contains whitespace/);
  await expect(rows.nth(2)).toContainText(/docs\.jsonl\s*2\s*text\s*empty text/);
  await expect(rows.nth(3)).toContainText(/docs\.jsonl\s*3\s*invalid JSON/);

  // A binary file is refused with words.
  await page.getByRole('button', { name: 'OK' }).click();
  await page.getByLabel('Choose files').setInputFiles(tempFile('blob.txt', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3])));
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByRole('alert').getByRole('table', { name: 'Skipped input' })).toContainText('it looks like a binary file, not text');
});

test('a record nested 5,000 levels deep loses that field, not the load', async ({ page }) => {
  await openCorpora(page);
  const deep = `{"id":"deep","text":"kept anyway","tree":${'{"down":'.repeat(5000)}"bottom"${'}'.repeat(5000)}}`;
  await page.getByLabel('Choose files').setInputFiles(tempFile('nested.jsonl', `{"id":"a","text":"first"}\n${deep}\n{"id":"b","text":"last"}\n`));
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('3 documents');
  await expect(summary.getByRole('table', { name: 'Skipped input' })).toContainText("metadata field 'tree' is nested deeper than 32 levels");
});

test('a zip of blank lines is refused past its inflation ratio and the documents before them are kept', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose files').setInputFiles(tempFile('bomb.zip', blankLineBomb(64 * 1024 * 1024)));
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('2 documents');
  await expect(summary.getByRole('table', { name: 'Skipped input' })).toContainText('refused as a likely zip bomb');
});

test('a Latin-1 file loads with the Latin-1 encoding; in UTF-8 its lines are reported, not merged', async ({ page }) => {
  await openCorpora(page);
  const latin1 = Buffer.concat([Buffer.from('{"id":"caf'), Buffer.from([0xe9]), Buffer.from('","text":"one"}\n{"id":"caf'), Buffer.from([0xe8]), Buffer.from('","text":"two"}\n')]);
  const file = tempFile('latin.jsonl', latin1);
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByRole('alert').getByRole('table', { name: 'Skipped input' })).toContainText('the line is not valid UTF-8');
  await page.getByRole('button', { name: 'OK' }).click();
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByLabel('Text encoding').selectOption('latin1');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('2 documents');
  await expect(page.getByTestId('load-summary')).toContainText('Nothing was skipped');
});

test('a TREC import counts and shows document ids that are not in the corpus', async ({ page }) => {
  await openCorpora(page);
  await page.getByLabel('Choose a folder').setInputFiles(tinyBeir);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('4 documents');
  const queries = fs.readFileSync(path.join(tinyBeir, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)._id as string);
  const docs = fs.readFileSync(path.join(tinyBeir, 'corpus.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)._id as string);
  const run = `${queries[0]} Q0 ${docs[0]} 1 3 x\r${queries[0]} Q0 ghost-1 2 2 x\r${queries[1]} Q0 ghost-1 1 2 x\r${queries[1]} Q0 ghost-2 2 1 x\r`;
  await page.goto('/#/runs');
  await page.getByLabel('Import a TREC run file').setInputFiles(tempFile('other.run', run));
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('Imported “other” from other.run');
  await expect(report.getByTestId('unknown-documents')).toContainText('2 document id(s) of the file (3 result(s)) are not documents of this corpus');
  await expect(report.getByTestId('unknown-documents')).toContainText('ghost-1, ghost-2');
});
