// SVG → PNG through headless Debian Chromium (the same browser and flags as the Playwright tests).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../../src/test-support/chromium-launch.ts';

/** Writes each SVG document as a PNG of exactly its size (one browser for all). */
export async function svgsToPng(items: Array<{ svg: string; file: string }>): Promise<void> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage();
    for (const { svg, file } of items) {
      const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 800);
      const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 600);
      await page.setViewportSize({ width, height });
      await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.locator('body > svg').screenshot({ path: file });
    }
  } finally {
    await browser.close();
  }
}

export const svgToPng = (svg: string, file: string) => svgsToPng([{ svg, file }]);
