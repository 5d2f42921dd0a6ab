import { defineConfig } from 'vitest/config';
import { countryShapes } from './client/src/viz/country_map/country-shapes.build.ts';

// One runner for the whole workspace: unit tests beside their files, cross-package flows in tests/.
export default defineConfig({
  // The Country Map's shapes (virtual modules), for the unit tests that draw a country.
  plugins: [countryShapes()],
  test: {
    include: ['contracts/src/**/*.test.ts', 'server/src/**/*.test.ts', 'query-worker/src/**/*.test.ts', 'client/src/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Browser steps wait on a shared 2-core machine; in CI a failed test gets one more try (it must then pass).
    retry: process.env.CI ? 1 : 0,
    // expect.poll waits 1 s by default: too short for a page to boot on a loaded 2-core machine.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // The suite's two forks, their servers and Chromium share the machine: query threads at the
    // production niceness (10) would starve behind the other fork and a 1M-row query would take minutes.
    env: { QUERY_WORKER_NICE: process.env.QUERY_WORKER_NICE ?? '0' },
  },
});
