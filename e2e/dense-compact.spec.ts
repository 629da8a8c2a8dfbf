import { expect, test, type Page } from '@playwright/test';
import { loadAndEmbedSample } from './support.ts';

// The compact vector forms in the real browser worker: int8 (plain and certified exact) and binary first passes
// with float32 rescoring over the tiny-bert vectors of the sample corpus, in a cross-origin isolated page (shared
// WebAssembly memory).

async function resultTexts(page: Page): Promise<string[]> {
  const items = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  return items.allInnerTexts();
}

test('dense search in int8, certified int8 and binary form finds the same top-10 as exact float32, in a cross-origin isolated page', async ({ page }) => {
  test.setTimeout(240_000); // embedding on a busy 2-core machine can take a minute
  await page.goto('/#/corpora');
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  await loadAndEmbedSample(page, { embedTimeout: 120_000 });
  await page.getByTestId('embedding-set').getByRole('button', { name: 'Search' }).click();

  const form = page.getByLabel('Vector form');
  await expect(form).toHaveValue('auto');
  await expect(form.locator('option:checked')).toHaveText('automatic (float32 for 168 documents)');
  await page.getByLabel('Query').fill('lighthouse keeper rescues shipwrecked sailors in a storm');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const exact = await resultTexts(page);

  for (const vectorForm of ['int8', 'int8-exact', 'binary']) {
    await form.selectOption(vectorForm);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByTestId('search-stats')).toContainText(/10 result\(s\)/);
    await expect.poll(() => resultTexts(page)).toEqual(exact);
  }
});
