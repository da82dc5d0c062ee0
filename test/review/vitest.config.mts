import { defineConfig } from 'vitest/config';

/**
 * The outside review's probes of the Orders day sums' stored form (not part of the main suite:
 * its projects include test/unit, integration, reliability, perf, e2e, bundle, runtime, emulator only).
 * Run one file at a time: `nice -n 10 npx vitest run --config test/review/vitest.config.mts test/review/<file>`.
 */
export default defineConfig({
  test: {
    include: ['test/review/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
