import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './src/test-support/chromium-launch.ts';

// E2E_PORT / E2E_OUTDIR let several builds be tested side by side (default: dist/ on 4173).
const PORT = Number(process.env.E2E_PORT ?? 4173);
const OUT_DIR = process.env.E2E_OUTDIR ?? 'dist';
const REAL = process.env.E2E_REAL === '1';

// The e2e specs expect tiny-bert to be the only model the app serves, whatever `npm run models` has put in
// public/models: the preview serves a folder holding a link to it alone. The real-model specs serve them all.
function tinyBertOnly(): string {
  const folder = path.resolve('.tmp/e2e-served-models');
  const link = path.join(folder, 'tiny-bert');
  fs.mkdirSync(folder, { recursive: true });
  if (!fs.lstatSync(link, { throwIfNoEntry: false })) fs.symlinkSync(path.resolve('public/models/tiny-bert'), link, 'dir');
  return folder;
}

export default defineConfig({
  testDir: REAL ? './e2e-real' : './e2e',
  timeout: REAL ? 900_000 : 90_000,
  expect: { timeout: 20_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: process.env.E2E_OUTDIR ? `${process.env.E2E_OUTDIR}-results` : 'test-results',
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'off', screenshot: 'only-on-failure' },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: CHROMIUM_LAUNCH,
      },
    },
  ],
  webServer: {
    command: `./node_modules/.bin/vite preview --outDir ${OUT_DIR} --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    env: REAL ? {} : { DSW_SERVED_MODELS: tinyBertOnly() },
  },
});
