// Cancel shows "Cancelling…" (button disabled) until the job has stopped, then a cancelled state, and leaves
// nothing half-stored.
import { expect, test, type Page } from '@playwright/test';
import { chooseTinyModelFolder, loadAndEmbedSample, loadSample, sawCancelling, storedRowCount, watchForCancelling } from './support.ts';

/** Each stored embedding set with the rows its pooled chunks hold. */
async function embeddingSetRows(page: Page): Promise<Array<{ rowsDone: number; complete: boolean; chunkRows: number }>> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('deep-search-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['embeddingSets', 'vectorChunks']);
          const sets = tx.objectStore('embeddingSets').getAll();
          const chunks = tx.objectStore('vectorChunks').getAll();
          tx.oncomplete = () => {
            open.result.close();
            resolve(
              (sets.result as Array<{ corpusId: string; modelKey: string; rowsDone: number; complete: boolean }>).map((set) => ({
                rowsDone: set.rowsDone,
                complete: set.complete,
                chunkRows: (chunks.result as Array<{ corpusId: string; modelKey: string; kind: string; ids: string[] }>)
                  .filter((c) => c.corpusId === set.corpusId && c.modelKey === set.modelKey && c.kind === 'pooled')
                  .reduce((n, c) => n + c.ids.length, 0),
              })),
            );
          };
        };
      }),
  );
}

test('cancelling an embedding shows Cancelling…, then cancelled; what is stored is consistent and resumable', async ({ page }) => {
  await loadSample(page);
  await chooseTinyModelFolder(page);
  await page.getByLabel('Batch size').fill('1'); // one document per inference call: slow enough to cancel mid-way
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.getByTestId('embed-progress')).toContainText(/^[1-9]\d* of 168 documents/);
  await watchForCancelling(page);
  await page.getByRole('region', { name: 'Embedding progress' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Embedding with tiny-bert was cancelled. What was embedded is kept' })).toBeVisible();
  expect(await sawCancelling(page)).toBe(true);

  // Nothing half-stored: the set's rows done are exactly the rows its chunks hold.
  const sets = await embeddingSetRows(page);
  expect(sets).toHaveLength(1);
  expect(sets[0]!.complete).toBe(false);
  expect(sets[0]!.rowsDone).toBeLessThan(168);
  expect(sets[0]!.chunkRows).toBe(sets[0]!.rowsDone);

  // …and it resumes to the full set.
  await page.getByRole('button', { name: /^Resume/ }).click();
  await expect(page.getByTestId('embed-summary')).toContainText('Embedded 168 documents with tiny-bert', { timeout: 120_000 });
  const after = await embeddingSetRows(page);
  expect(after).toEqual([{ rowsDone: 168, complete: true, chunkRows: 168 }]);
});

test('cancelling a sweep shows Cancelling…, then cancelled; no run of it is stored', async ({ page }) => {
  await loadAndEmbedSample(page, { embedTimeout: 120_000 });
  const runsBefore = await storedRowCount(page, 'runs');
  await page.goto('/#/gqr');
  await page.getByLabel('Grid nSteps').fill('4000, 5000');
  await page.getByLabel('Sweep name').fill('Too long');
  await page.getByRole('button', { name: /^Run sweep: 44 grid points × 54 queries/ }).click();
  const progress = page.getByTestId('sweep-progress');
  await expect(progress).toContainText(/Re-ranking at 44 grid points — \d+ \/ 54 queries/);
  await watchForCancelling(page);
  await progress.getByRole('button', { name: 'Cancel sweep' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The sweep “Too long” was cancelled; nothing was saved.' })).toBeVisible();
  expect(await sawCancelling(page)).toBe(true);
  await expect(page.getByTestId('sweep-progress')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Sweep results' })).toHaveCount(0);
  expect(await storedRowCount(page, 'runs')).toBe(runsBefore);
  await page.reload();
  await expect(page.getByRole('region', { name: 'New sweep' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Saved sweeps' })).toHaveCount(0);
});
