// A BEIR folder whose qrels judge a document with no text, as Cranfield's do (471 and 995).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

function cranfieldLike(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-empty-docs-'));
  const folder = path.join(dir, 'wings');
  fs.mkdirSync(path.join(folder, 'qrels'), { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'corpus.jsonl'),
    ['{"_id": "1", "title": "lift", "text": "lift of slender wings"}', '{"_id": "471", "title": "", "text": ""}', '{"_id": "2", "title": "drag", "text": "drag of bodies"}'].join('\n'),
  );
  fs.writeFileSync(path.join(folder, 'queries.jsonl'), '{"_id": "q1", "text": "wings lift"}\n');
  fs.writeFileSync(path.join(folder, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\t1\t2\nq1\t471\t1\nq1\t2\t1\n');
  return folder;
}

async function load(page: Page, folder: string, name: string, keepEmpty: boolean) {
  await page.goto('/#/corpora');
  await page.getByLabel('Choose a folder').setInputFiles(folder);
  await page.getByLabel('Corpus name').fill(name);
  if (keepEmpty) await page.getByLabel('Keep documents with empty text').check();
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

test('documents with empty text are skipped and listed by default, and kept with their judgements when asked', async ({ page }) => {
  const folder = cranfieldLike();
  await load(page, folder, 'Skipped', false);
  const summary = page.getByTestId('load-summary');
  await expect(summary).toContainText('2 documents, 1 query, 2 relevance judgements');
  await expect(summary.getByRole('table', { name: 'Skipped input' })).toContainText("empty text (field 'text')");
  await summary.getByRole('button', { name: 'Close' }).click();

  // The same files kept whole: a different set of documents, so not refused as a duplicate.
  await load(page, folder, 'Kept', true);
  await expect(summary).toContainText('Loaded “Kept”');
  await expect(summary).toContainText('3 documents, 1 query, 3 relevance judgements');
  await expect(summary).toContainText('Nothing was skipped.');
  await expect(page.getByTestId('corpus-item').filter({ hasText: 'Kept' })).toContainText('3 documents');
  fs.rmSync(path.dirname(folder), { recursive: true, force: true });
});
