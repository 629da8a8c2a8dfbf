import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { storedDocumentCount } from './support.ts';

/**
 * A JSONL corpus of `docs` documents (about 250 bytes each): 40 words drawn from 65,536, so that neither the text
 * (stored a batch per row, which the browser compresses) nor the index shrinks much below its size.
 */
function corpusFile(docs: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-quota-'));
  const file = path.join(dir, 'big.jsonl');
  const lines: string[] = [];
  const word = (i: number, j: number) => `v${((Math.imul(i * 40 + j + 1, 0x9e3779b1) >>> 16) & 0xffff).toString(36)}`;
  for (let i = 0; i < docs; i++) lines.push(JSON.stringify({ _id: `doc${i}`, title: `Doc ${i}`, text: Array.from({ length: 40 }, (_, j) => word(i, j)).join(' ') }));
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

/** Restricts this origin's storage quota through the DevTools protocol (Storage.overrideQuotaForOrigin). */
async function restrictQuota(page: Page, bytes: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: bytes });
}


async function loadFile(page: Page, file: string) {
  await page.getByLabel('Choose files').setInputFiles(file);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

test('after an over-quota load fails nothing of it remains, the words say what is stored and what helps, and a small corpus loads', async ({ page }) => {
  test.setTimeout(180_000);
  const file = corpusFile(40_000); // 12 MB of JSONL
  await page.goto('/#/corpora');
  await restrictQuota(page, 8 * 1024 * 1024);
  await loadFile(page, file);
  const failure = page.getByRole('alert');
  await expect(failure).toContainText('Loading “big” failed', { timeout: 150_000 });
  await expect(failure).toContainText('storage quota exceeded');
  await expect(failure).toContainText('Nothing of it was kept: its partial data has been removed.');
  await expect(failure).toContainText(/This site now uses [\d.]+ KB \([\d.]+ KB of corpora, embeddings and runs, [\d.]+ B of model files kept in this browser\)/);
  await expect(failure).toContainText('deleting will not help');
  await expect(failure).not.toContainText('Free space by deleting corpora');
  expect(await storedDocumentCount(page)).toBe(0);

  // The recovery is real: a small corpus loads right away, under the same quota.
  await page.getByRole('button', { name: 'Load the sample corpus' }).click();
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
  expect(await storedDocumentCount(page)).toBe(168);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test('when model files kept in the browser take the space, the words point at them and removing them lets the load through', async ({ page }) => {
  test.setTimeout(180_000);
  const file = corpusFile(8_000); // 2.4 MB
  await page.goto('/#/corpora');
  await restrictQuota(page, 8 * 1024 * 1024);
  // A kept model folder of 6 MB (what "Use a model folder" stores in Cache Storage).
  await page.evaluate(async () => {
    const cache = await caches.open('dsw-model-folders');
    await cache.put('/local-models/big-model/onnx/model.onnx', new Response(new Uint8Array(6 * 1024 * 1024), { headers: { 'content-length': String(6 * 1024 * 1024) } }));
  });
  await loadFile(page, file);
  const failure = page.getByRole('alert');
  await expect(failure).toContainText('Loading “big” failed', { timeout: 150_000 });
  await expect(failure).toContainText('Most of that is model files: removing model folders you no longer need (Embeddings page) frees the most.');
  expect(await storedDocumentCount(page)).toBe(0);
  // What "Remove" of a kept model folder does (model-files.ts): delete its entries.
  await page.evaluate(async () => {
    const cache = await caches.open('dsw-model-folders');
    for (const request of await cache.keys()) await cache.delete(request);
  });
  await page.getByRole('button', { name: 'OK' }).click();
  await loadFile(page, file);
  await expect(page.getByTestId('load-summary')).toContainText('Loaded “big”', { timeout: 150_000 });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});
