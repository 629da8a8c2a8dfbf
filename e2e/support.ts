// Steps and IndexedDB reads that several specs share.
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The generated tiny BERT model folder, picked as "a folder on this computer". */
export const tinyModelFolder = path.join(import.meta.dirname, '..', 'public', 'models', 'tiny-bert');

/** Loads the sample corpus and embeds it with tiny-bert from a model folder. */
export async function loadAndEmbedSample(page: Page, options: { embedTimeout?: number } = {}): Promise<void> {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'A folder on this computer (offline)' }).check();
  await page.getByLabel('Choose a model folder').setInputFiles(tinyModelFolder);
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-summary')).toContainText('Embedded 168 documents with tiny-bert', { timeout: options.embedTimeout });
}

/** How many rows the `documents` store holds, across every corpus. */
export async function storedDocumentCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('deep-search-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('documents').objectStore('documents').count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
        };
      }),
  );
}
