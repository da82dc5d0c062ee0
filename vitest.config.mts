import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not measurements (no test asserts on wall time): an integration suite that takes
    // 10 s alone took over 60 s on two cores shared with five other test runs.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
