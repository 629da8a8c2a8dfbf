// The storage meter in the header counts what this site stores, also right after a reload or a browser restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../src/test-support/chromium-launch.ts';

/** The meter's usage in bytes, read from its words ("Storage: 1.2 MB of …"). */
async function meterBytes(page: Page): Promise<number> {
  const text = (await page.locator('.storage-meter').textContent()) ?? '';
  const match = /Storage: ([\d.]+) (B|KB|MB|GB)/.exec(text);
  if (!match) throw new Error(`No usage in “${text}”`);
  return Number(match[1]) * { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 }[match[2] as 'B'];
}

test('the storage meter shows the stored corpus after a reload and after the browser restarts, not 0 B', async ({ baseURL }) => {
  // A profile on disk, as a person's browser has: Chromium forgets its usage figures when it stops.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-meter-'));
  const open = async () => {
    const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH, baseURL });
    return { context, page: context.pages()[0] ?? (await context.newPage()) };
  };
  try {
    let { context, page } = await open();
    await page.goto('/#/corpora');
    await page.getByRole('button', { name: 'Load the sample corpus' }).click();
    await expect(page.getByTestId('load-summary')).toContainText('Loaded “Meridian Coast (sample)”');
    await expect.poll(() => meterBytes(page)).toBeGreaterThan(100_000);
    const stored = await meterBytes(page);
    await page.reload();
    await expect(page.locator('.storage-meter')).toBeVisible();
    expect(await meterBytes(page), 'after a reload').toBeGreaterThan(stored / 2);
    await context.close();

    ({ context, page } = await open());
    await page.goto('/#/search');
    await expect(page.locator('.storage-meter')).toBeVisible();
    expect(await meterBytes(page), 'after a browser restart').toBeGreaterThan(stored / 2);
    await context.close();
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
