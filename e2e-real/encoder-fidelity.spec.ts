// The real encoder in the browser worker (onnxruntime-web, wasm) against sentence-transformers' encode: 300 texts
// of each shared collection loaded as one corpus, embedded on the Embeddings page with fp32 and with q8 weights
// served by the app, the stored vectors read back from IndexedDB and compared row by row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sharedDataset } from '../bench/harness.ts';
import { fidelityTexts, realModelMissing, selectedEncoders, referenceVectors, rowCosines, worstCosine } from '../bench/real/reference-encoder.ts';

// REAL_COLLECTIONS=adi,cranfield narrows the check (e.g. for a quick try).
const COLLECTIONS = (process.env.REAL_COLLECTIONS?.split(',') ?? ['adi', 'cranfield', 'npl', 'hotpotqa-500']).filter((name) => sharedDataset(name));
const FLOORS = { fp32: 0.9999, q8: 0.99 } as const;

async function storedVectors(page: Page): Promise<Map<string, Map<string, number[]>>> {
  const rows = await page.evaluate(
    () =>
      new Promise<Array<{ modelKey: string; ids: string[]; vectors: number[] }>>((resolve, reject) => {
        const open = indexedDB.open('deep-search-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('vectorChunks').objectStore('vectorChunks').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () =>
            resolve(
              (all.result as Array<{ kind: string; modelKey: string; ids: string[]; vectors: Float32Array }>)
                .filter((c) => c.kind === 'pooled')
                .map((c) => ({ modelKey: c.modelKey, ids: c.ids, vectors: Array.from(c.vectors) })),
            );
        };
      }),
  );
  const byModel = new Map<string, Map<string, number[]>>();
  for (const chunk of rows) {
    const set = byModel.get(chunk.modelKey) ?? new Map<string, number[]>();
    const dims = chunk.vectors.length / chunk.ids.length;
    chunk.ids.forEach((id, r) => set.set(id, chunk.vectors.slice(r * dims, (r + 1) * dims)));
    byModel.set(chunk.modelKey, set);
  }
  return byModel;
}

for (const encoder of selectedEncoders()) {
  test(`${encoder.presetId} in the browser worker matches sentence-transformers on 300 texts per collection`, async ({ page }) => {
    const missing = realModelMissing(encoder);
    test.skip(missing !== null, `skipped: ${missing}`);
    // 1,117 texts, fp32 then q8, in wasm: MiniLM took 5 min on a quiet 2-core machine and 11.5 min at load 4;
    // all-mpnet-base-v2 is about six times MiniLM's compute and ran out of 45 min (test.slow()) at load 4.
    test.setTimeout(2 * 3600_000);
    test.skip(COLLECTIONS.length === 0, 'skipped: no shared collection in ../shared/data');

    const texts = new Map(COLLECTIONS.map((name) => [name, fidelityTexts(sharedDataset(name)!)]));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-fidelity-'));
    const file = path.join(dir, 'fidelity.jsonl');
    const lines = [...texts].flatMap(([name, list]) => list.map((text, i) => JSON.stringify({ _id: `${name}-${i}`, title: '', text })));
    fs.writeFileSync(file, lines.join('\n'));
    await page.goto('/#/corpora');
    await page.getByLabel('Choose files').setInputFiles(file);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect(page.getByTestId('load-summary')).toContainText(`${lines.length.toLocaleString('en-US')} documents`);

    await page.goto('/#/embeddings');
    await page.getByRole('radio', { name: 'Served by this app (offline)' }).check();
    await page.getByLabel('Model', { exact: true }).selectOption(encoder.presetId);
    for (const dtype of Object.keys(FLOORS)) {
      await page.getByLabel('Weights (dtype)').selectOption(dtype);
      await expect(page.getByTestId('model-location-hint')).toContainText('They are present.');
      await page.getByRole('button', { name: 'Embed', exact: true }).click();
      // Either this dtype's summary or the error panel; a failed load fails the test at once, with its words.
      const summary = page.getByTestId('embed-summary').filter({ hasText: `with ${encoder.presetId} (${dtype},` });
      await expect(summary.or(page.getByTestId('embed-error'))).toBeVisible({ timeout: 0 }); // bounded by the test's timeout
      await expect(page.getByTestId('embed-error')).toHaveCount(0);
      await expect(summary).toContainText(`Embedded ${lines.length.toLocaleString('en-US')} documents`);
    }

    const sets = await storedVectors(page);
    for (const [dtype, floor] of Object.entries(FLOORS)) {
      const set = [...sets].find(([key]) => key.includes(encoder.presetId) && key.includes(dtype))?.[1];
      expect(set, `stored ${dtype} vectors (sets: ${[...sets.keys()].join(', ')})`).toBeDefined();
      for (const [name, list] of texts) {
        const ours = new Float32Array(list.flatMap((_, i) => set!.get(`${name}-${i}`)!));
        const worst = worstCosine(rowCosines(ours, referenceVectors(encoder, list), list.length), list);
        console.log(`browser ${encoder.presetId} ${name} ${dtype}: ${list.length} texts, worst cosine ${worst.cosine.toFixed(6)}`);
        expect(worst.cosine, `${name} ${dtype}: "${worst.text.slice(0, 80)}"`).toBeGreaterThanOrEqual(floor);
      }
    }
  });
}
