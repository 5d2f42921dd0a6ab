import { defineConfig } from 'vitest/config';

// One runner for the whole workspace: unit tests beside their files, cross-package flows in tests/.
export default defineConfig({
  test: {
    include: ['contracts/src/**/*.test.ts', 'server/src/**/*.test.ts', 'query-worker/src/**/*.test.ts', 'client/src/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Browser steps wait on a shared 2-core machine; in CI a failed test gets one more try (it must then pass).
    retry: process.env.CI ? 1 : 0,
  },
});
