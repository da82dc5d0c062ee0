/**
 * A hostile or broken server (support/hostile-front.ts) answers a custom function with a value
 * nested 20,000 deep. SAFE: the formula fails with words saying the service sent a value the
 * add-on cannot read, never V8's raw "Maximum call stack size exceeded".
 */
import { afterEach, expect, it } from 'vitest';
import { deepArrayText, stackBehindHostileFront, type FrontedStack } from './support/hostile-front';
import { runUntilSettled } from './support/verdict';

let fronted: FrontedStack | undefined;

afterEach(async () => {
  await fronted?.close();
  fronted = undefined;
});

const CASES: Array<{ fn: string; args: unknown[]; path: string; poison: (json: Record<string, unknown>) => void }> = [
  {
    fn: 'PROFIT_SUMMARY',
    args: ['2026-10-01', '2026-10-31'],
    path: '/api/v1/profitability/summary',
    poison: (json) => (((json.data ?? json) as { totals: Record<string, unknown> }).totals.net_profit = '__DEEP__'),
  },
  {
    fn: 'PROFIT_DAILY',
    args: ['2026-10-01', '2026-10-03'],
    path: '/api/v1/profitability/daily',
    poison: (json) => ((json.data as Array<Record<string, unknown>>)[0]!.net_profit = '__DEEP__'),
  },
];

for (const c of CASES) {
  it(`${c.fn} fed a value nested 20,000 deep fails with a clear message, not a raw stack overflow`, async () => {
    const { s, f } = (fronted = await stackBehindHostileFront());
    expect((await runUntilSettled(s)).outcome).toBe('ok');
    let poisoned = 0;
    f.rewrite = (req, status, body) => {
      if (!req.path.startsWith(c.path) || status !== 200) return null;
      const json = JSON.parse(body) as Record<string, unknown>;
      c.poison(json);
      poisoned++;
      return JSON.stringify(json).replace('"__DEEP__"', deepArrayText(20_000));
    };
    const r = await s.runtime.run(c.fn, c.args, { authMode: 'CUSTOM_FUNCTION' as 'FULL' });
    expect(poisoned, f.seen.map((q) => q.path).join('\n')).toBeGreaterThan(0);
    const message = r.error ? String((r.error as { message?: unknown }).message ?? r.error) : '';
    expect(message).not.toMatch(/call stack/i);
    expect(message).toMatch(/sent a value the add-on cannot read/);
  }, 120_000);
}
