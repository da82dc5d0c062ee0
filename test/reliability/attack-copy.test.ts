/**
 * Attack (variants of the copied-spreadsheet binding): B makes a copy of A's connected spreadsheet (runtime.makeCopy,
 * carrying the document properties) and runs, in the copy, every global the existing copy test
 * does not (reconciliation, tie-out, month close, the other custom functions, the connection check
 * in both token modes, the menu's items). SAFE: not one request reaches the service (the
 * emulator's own counters), and nothing shows a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleTrigger } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { tokensIn, triggerUntilSettled } from './support/verdict';

const B = 'copier@example.com';
let stack: ReliabilityStack;
let copyId: string;

async function addOnRequests(): Promise<Record<string, number>> {
  const stats = (await stack.control('stats')) as { by_endpoint: Record<string, { total: number }> };
  return Object.fromEntries(
    Object.entries(stats.by_endpoint)
      .filter(([e]) => !e.includes(' /_emulator/'))
      .map(([e, v]) => [e, v.total]),
  );
}

beforeAll(async () => {
  stack = await startReliabilityStack({ orders: 20, seed: 13 });
  const trigger = await scheduleTrigger(stack);
  expect((await triggerUntilSettled(stack, trigger)).outcome).toBe('ok');
  copyId = stack.runtime.makeCopy(B);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe("a copy's globals send nothing with A's connection", () => {
  const calls: Array<[string, unknown[], string?]> = [
    ['checkApiConnection', ['trigger'], 'FULL'],
    ['checkApiConnection', ['custom_function'], 'FULL'],
    ['reconcileOrdersNow', [45_000]],
    ['tieOutNow', []],
    ['closeMonth', [{ month: '2026-10' }]],
    ['insertDashboard', []],
    ['syncNowFromMenu', []],
    ['refreshFormulasFromMenu', []],
    ['MA_FRESHNESS', [], 'CUSTOM_FUNCTION'],
    ['PROFIT_DAILY', ['2026-10-01', '2026-10-03'], 'CUSTOM_FUNCTION'],
    ['PROFIT_MONTHLY', ['2026-09-01', '2026-10-31'], 'CUSTOM_FUNCTION'],
    ['PROFIT_ORDER', ['1001'], 'CUSTOM_FUNCTION'],
    ['PRODUCT_COST', ['SKU-1'], 'CUSTOM_FUNCTION'],
    ['PROFIT_TIEOUT', ['2026-10-01', '2026-10-31'], 'CUSTOM_FUNCTION'],
  ];
  for (const user of [B, 'user@example.com']) {
    it(`run by ${user === B ? 'the copier B' : 'A'} in the copy: no request reaches the service`, async () => {
      const before = await addOnRequests();
      const sent: string[] = [];
      for (const [name, args, mode] of calls) {
        const r = await stack.runtime.run(name, args, {
          user,
          spreadsheetId: copyId,
          ...(mode ? { authMode: mode as 'FULL' } : {}),
        });
        for (const req of r.counts.requests as unknown as Array<{ url?: string } | string>)
          sent.push(`${name}: ${typeof req === 'string' ? req : JSON.stringify(req).slice(0, 160)}`);
      }
      expect(sent).toEqual([]);
      expect(await addOnRequests()).toEqual(before);
      expect(await tokensIn(stack)).toEqual([]);
    }, 240_000);
  }
});
