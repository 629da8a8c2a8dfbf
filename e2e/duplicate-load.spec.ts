// Loading documents that are stored already: the content checksum finds the stored corpus, and the person chooses.
import path from 'node:path';
import { expect, test } from '@playwright/test';

const tinyBeir = path.join(import.meta.dirname, 'fixtures', 'tiny-beir');

test('the same folder loaded twice is refused with the stored corpus named, and loads again as a copy when asked', async ({ page }) => {
  await page.goto('/#/corpora');
  await page.getByLabel('Choose a folder').setInputFiles(tinyBeir);
  await page.getByLabel('Corpus name').fill('Mills');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Mills”');
  await page.getByTestId('load-summary').getByRole('button', { name: 'Close' }).click();

  // The same files again, under a different name: the documents decide, not the name.
  await page.getByLabel('Choose a folder').setInputFiles(tinyBeir);
  await page.getByLabel('Corpus name').fill('Mills again');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const question = page.getByTestId('duplicate-load');
  await expect(question).toContainText(/These documents are already loaded as “Mills” \(the same 4 documents, content checksum sha256:[0-9a-f]{12}…\)\. Nothing new was stored\./);
  await expect(question).toContainText('Load again as a copy (“Mills again (copy)”)?');
  await expect(page.getByTestId('corpus-item')).toHaveCount(1);

  await question.getByRole('button', { name: 'Load as a copy' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Mills again (copy)”');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('corpus-item')).toHaveCount(2);
  await expect(page.getByTestId('corpus-item').filter({ hasText: 'Mills again (copy)' })).toContainText('4 documents');
});

test('loading the sample twice offers the stored one; choosing it stores nothing new', async ({ page }) => {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  const question = page.getByTestId('duplicate-load');
  await expect(question).toContainText('already loaded as “Meridian Coast (sample)” (the same 168 documents');
  await question.getByRole('button', { name: 'Use “Meridian Coast (sample)”' }).click();
  await expect(question).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('corpus-item')).toHaveCount(1);
});
