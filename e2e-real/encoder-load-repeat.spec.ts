// The app-served real encoder loads every time: fp32 then q8, in a fresh browser context each round (nothing
// cached), on a three-document corpus so that the model load is most of the work. Before the app fetched its
// model files itself (src/workers/model-file-fetcher.ts) about one load in three failed with "network error".
// REAL_LOAD_ROUNDS sets the rounds (default 10).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REAL_ENCODERS, encoderPresent } from '../scripts/real-encoders.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.REAL_LOAD_ROUNDS ?? 10);

for (const encoder of REAL_ENCODERS) {
  test(`${encoder.presetId} served by the app loads fp32 then q8 in ${ROUNDS} fresh contexts in a row`, async ({ browser }) => {
    test.skip(!encoderPresent(ROOT, encoder), `skipped: ${encoder.presetId} is not in public/models/: run \`npm run models\` first`);
    test.setTimeout(ROUNDS * 300_000);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-load-')), 'three.jsonl');
    const texts = ['wind tunnel tests of a delta wing', 'boundary layer flow', 'heat transfer at hypersonic speed'];
    fs.writeFileSync(file, texts.map((text, i) => JSON.stringify({ _id: `d${i}`, title: '', text })).join('\n'));
    for (let round = 1; round <= ROUNDS; round++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const failed: string[] = [];
      context.on('requestfailed', (r) => {
        if (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/models/')) failed.push(`${r.url()}: ${r.failure()?.errorText}`);
      });
      await page.goto('/#/corpora');
      await page.getByLabel('Choose files').setInputFiles(file);
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      await expect(page.getByTestId('load-summary')).toContainText('3 documents');
      await page.goto('/#/embeddings');
      await page.getByRole('radio', { name: 'Served by this app (offline)' }).check();
      await page.getByLabel('Model', { exact: true }).selectOption(encoder.presetId);
      for (const dtype of ['fp32', 'q8']) {
        await page.getByLabel('Weights (dtype)').selectOption(dtype);
        await page.getByRole('button', { name: 'Embed', exact: true }).click();
        const summary = page.getByTestId('embed-summary').filter({ hasText: `with ${encoder.presetId} (${dtype},` });
        await expect(summary.or(page.getByTestId('embed-error'))).toBeVisible({ timeout: 300_000 });
        await expect(page.getByTestId('embed-error'), `round ${round}, ${dtype}`).toHaveCount(0);
        await expect(summary).toContainText('Embedded 3 documents');
      }
      expect(failed, `round ${round}: failed model-file GETs`).toEqual([]);
      console.log(`round ${round}: fp32 and q8 loaded`);
      await context.close();
    }
  });
}
