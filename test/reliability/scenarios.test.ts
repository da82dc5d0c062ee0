/**
 * The fault matrix, one seeded run of each scenario: whatever the trouble, the sync ends
 * with every data sheet equal to the emulator's truth, no token in anything recorded, and the
 * connection as the spec wants it. `npm run reliability` runs each several times and prints a table.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './scenarios';
import { runScenario } from './support/run-scenario';

/** Scenario runs that once failed (name, seed): each a defect found and fixed. */
const REGRESSIONS: ReadonlyArray<readonly [string, number]> = [
  // Its bursts were laid on one request: 7 failures in a row, past the transport's 5 attempts.
  ['500/502 bursts on random pages', 2000],
];

describe('reliability scenarios', () => {
  it.each(SCENARIOS.map((s, i) => [s.name, i] as const))('%s', async (_name, index) => {
    const report = await runScenario(SCENARIOS[index]!, 101 + index);
    expect(report.problems).toEqual([]);
    expect(report.rowsCompared).toBeGreaterThan(SCENARIOS[index]!.orders);
    expect({ mismatches: report.mismatches, tokensFound: report.tokensFound }).toEqual({
      mismatches: 0,
      tokensFound: 0,
    });
  });

  it.each(REGRESSIONS)('regression: %s, seed %i', async (name, seed) => {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    const report = await runScenario(scenario, seed);
    expect(report.problems).toEqual([]);
    expect({ mismatches: report.mismatches, tokensFound: report.tokensFound }).toEqual({
      mismatches: 0,
      tokensFound: 0,
    });
  });
});
