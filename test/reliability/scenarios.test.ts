/**
 * Issue 13's fault matrix, one seeded run of each scenario: whatever the trouble, the sync ends
 * with every data sheet equal to the emulator's truth, no token in anything recorded, and the
 * connection as the spec wants it. `npm run reliability` runs each several times and prints a table.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './scenarios';
import { runScenario } from './support/run-scenario';

describe('reliability scenarios', () => {
  it.each(SCENARIOS.map((s, i) => [s.name, i] as const))('%s', async (_name, index) => {
    const report = await runScenario(SCENARIOS[index]!, 101 + index);
    expect(report.problems).toEqual([]);
    expect(report.rowsCompared).toBeGreaterThan(SCENARIOS[index]!.orders);
    expect({ mismatches: report.mismatches, tokensFound: report.tokensFound }).toEqual({ mismatches: 0, tokensFound: 0 });
  });
});
