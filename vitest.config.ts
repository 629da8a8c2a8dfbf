import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}', 'bin/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The real-model and real-cluster checks are `npm run test:real`'s (vitest.real.config.ts).
    exclude: ['**/node_modules/**', 'src/**/*.real.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    globalSetup: ['scripts/vitest-generate.ts', 'scripts/opensearch/vitest-opensearch.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
  },
});
