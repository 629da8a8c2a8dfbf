import { defineConfig } from 'vitest/config';

// npm run test:real: checks against real models (after `npm run models`); each file skips with a message when its
// model is absent.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.real.test.ts', 'bench/**/*.real.test.ts'],
    pool: 'forks',
    testTimeout: 600_000,
    hookTimeout: 600_000,
    globalSetup: ['scripts/vitest-generate.ts'],
  },
});
