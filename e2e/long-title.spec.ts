import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const TITLE_CHARS = 1_000_000;

test('a document with a 1 MB title: the Search page shows it cut with a visible "…", the whole title on demand (issue case 5)', async ({ page }) => {
  const title = `Tidal mills ${'x'.repeat(TITLE_CHARS - 12)}`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-long-title-')), 'long-title.jsonl');
  fs.writeFileSync(file, `${JSON.stringify({ id: 'huge', title, text: 'tidal mills on the estuary' })}\n${JSON.stringify({ id: 'small', title: 'Water wheels', text: 'tidal water wheels' })}\n`);

  await page.goto('/#/corpora');
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(page.getByTestId('load-summary')).toContainText('2 documents');
  await page.getByTestId('corpus-item').filter({ hasText: 'long-title' }).getByRole('button', { name: 'Search' }).click();

  await page.getByLabel('Query').fill('tidal mills');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('list', { name: 'Results' });
  const hugeTitle = results.getByRole('listitem').filter({ hasText: 'huge ·' }).getByRole('button').first();
  const shown = await hugeTitle.textContent();
  expect(shown).toMatch(/^Tidal mills x+…$/);
  expect(shown!.length).toBe(301);

  // The page still answers: another search runs and shows its results.
  await page.getByLabel('Query').fill('water wheels');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(results.getByRole('listitem').first()).toContainText('Water wheels');

  // The whole title is one click away in the document viewer, cut again on request.
  await page.getByLabel('Query').fill('tidal mills');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await hugeTitle.click();
  const dialog = page.getByRole('dialog');
  const heading = dialog.getByRole('heading');
  await expect(heading).toContainText('…');
  await dialog.getByRole('button', { name: 'Show all 1,000,000 characters' }).click();
  await expect(dialog.getByRole('button', { name: 'Show less' })).toBeVisible();
  expect(await heading.locator('.clipped-text').evaluate((el) => el.textContent?.length)).toBe(TITLE_CHARS);
  await dialog.getByRole('button', { name: 'Show less' }).click();
  expect(await heading.locator('.clipped-text').evaluate((el) => el.textContent)).toMatch(/^Tidal mills x+…$/);
  await page.getByRole('button', { name: 'Close document' }).click();
});
