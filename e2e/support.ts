// Steps and IndexedDB reads that several specs share.
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The generated tiny BERT model folder, picked as "a folder on this computer". */
export const tinyModelFolder = path.join(import.meta.dirname, '..', 'public', 'models', 'tiny-bert');

/** Loads the bundled sample corpus from the Corpora page. */
export async function loadSample(page: Page): Promise<void> {
  await page.goto('/#/corpora');
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
}

/** Opens the Embeddings page with tiny-bert chosen from a model folder (not yet embedding). */
export async function chooseTinyModelFolder(page: Page): Promise<void> {
  await page.goto('/#/embeddings');
  await page.getByRole('radio', { name: 'A folder on this computer (offline)' }).check();
  await page.getByLabel('Choose a model folder').setInputFiles(tinyModelFolder);
}

/** Loads the sample corpus and embeds it with tiny-bert from a model folder. */
export async function loadAndEmbedSample(page: Page, options: { embedTimeout?: number } = {}): Promise<void> {
  await loadSample(page);
  await chooseTinyModelFolder(page);
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-summary')).toContainText('Embedded 168 documents with tiny-bert', { timeout: options.embedTimeout });
}

/** How many rows the `documents` store holds, across every corpus. */
export async function storedDocumentCount(page: Page): Promise<number> {
  // Documents are stored one row per loaded batch (`documentBlocks`, the directory rows have start −1), or one
  // row each in corpora stored before that (`documents`).
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('deep-search-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['documents', 'documentBlocks']);
          const rows = tx.objectStore('documents').count();
          const blocks = tx.objectStore('documentBlocks').getAll();
          tx.oncomplete = () => {
            open.result.close();
            const inBlocks = (blocks.result as Array<{ start: number; documents?: unknown[] }>).reduce((n, b) => n + (b.start >= 0 ? (b.documents?.length ?? 0) : 0), 0);
            resolve(rows.result + inBlocks);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** How many rows one IndexedDB store of the workbench holds (e.g. `runs`, `vectorChunks`), across every corpus. */
export async function storedRowCount(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('deep-search-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
        };
      }),
    store,
  );
}

/**
 * Starts recording whether a disabled "Cancelling…" button is ever on the page (a cancel can end within a frame,
 * too fast for a polling assertion); `sawCancelling` reads the record.
 */
export async function watchForCancelling(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __sawCancelling?: boolean };
    w.__sawCancelling = false;
    const check = () => {
      for (const b of document.querySelectorAll('button')) if (b.textContent === 'Cancelling…' && b.disabled) w.__sawCancelling = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

export async function sawCancelling(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __sawCancelling?: boolean }).__sawCancelling === true);
}
