/**
 * The seeded soak as a regression test: a shorter run of every seed that ever failed (each one a
 * bug found and fixed), plus one fresh seed. `npm run reliability` runs 1,000 operations on 5 seeds.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak';

/** Seeds that once failed, with the operations they needed to fail. */
const REGRESSION_SEEDS: ReadonlyArray<readonly [number, number]> = [[1, 150]];
// Seed 1 also failed at 1,000 operations (client disabled, then the grant moved: the sidebar said
// "contact the operator" for ever). That sequence is replayed directly, in seconds, by
// test/integration/connect-lifecycle.test.ts ("[soak seed 1]"); `npm run reliability` still runs
// 1,000 operations a seed.

describe('seeded soak', () => {
  it.each(REGRESSION_SEEDS)(
    'seed %i, %i operations: sheets equal the truth, no token anywhere, connected',
    async (seed, operations) => {
      const report = await runSoak(seed, operations);
      expect(report.problems).toEqual([]);
      expect({ mismatches: report.mismatches, tokensFound: report.tokensFound, connection: report.connection }).toEqual(
        { mismatches: 0, tokensFound: 0, connection: 'connected' },
      );
      expect(Object.values(report.drawn).reduce((a, b) => a + b, 0)).toBe(operations);
      expect(report.documentless).toBeGreaterThan(0);
    },
    600_000,
  );
});
