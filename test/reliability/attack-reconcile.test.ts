/**
 * Attack (role 3, a hostile record met by the reconciliation pass): one order the service lists with a hostile value (a
 * field nested 20,000 deep) while the reconciliation pass (Check for vanished orders,
 * reconcileOrdersNow) runs. SAFE: the order is skipped and retried, never marked gone: the service
 * still lists it ("gone" means the service no longer has it), and no other order is either.
 */
import { afterEach, expect, it } from 'vitest';
import { sheetTable } from '../integration/sync-support';
import { deepArrayText, stackBehindHostileFront, type FrontedStack } from './support/hostile-front';
import type { ReliabilityStack } from './support/reliability-stack';
import { runUntilSettled } from './support/verdict';

let fronted: FrontedStack | undefined;

afterEach(async () => {
  await fronted?.close();
  fronted = undefined;
});

it('the reconciliation pass marks no order gone when the service lists one with a value nested 20,000 deep', async () => {
  const { s, f } = (fronted = await stackBehindHostileFront());
  expect((await runUntilSettled(s)).outcome).toBe('ok');
  const statusesBefore = statuses(s);
  let hostileId: string | null = null;
  f.rewrite = (req, status, body) => {
    if (!req.path.startsWith('/api/v1/orders') || status !== 200) return null;
    const json = JSON.parse(body) as { data?: unknown };
    if (!Array.isArray(json.data) || json.data.length === 0) return null;
    const first = json.data[0] as Record<string, unknown>;
    hostileId = String(first.id);
    first.note = '__DEEP__';
    return JSON.stringify(json).replace('"__DEEP__"', deepArrayText(20_000));
  };
  const pass = await runUntilSettled(s, 'reconcileOrdersNow');
  expect(hostileId).not.toBeNull();
  expect(pass.outcome).toBe('ok');
  // Today: "Reconciliation complete: 1 order marked gone" — the order the service just listed.
  const after = statuses(s);
  const changed = Object.keys(after)
    .filter((id) => after[id] !== statusesBefore[id])
    .map((id) => `${id}${id === hostileId ? ' (the hostile one)' : ''}: ${statusesBefore[id]} → ${after[id]}`);
  expect({ markedGone: /\d+ orders? marked gone/.exec(pass.message)?.[0] ?? null, changed }).toEqual({
    markedGone: '0 orders marked gone',
    changed: [],
  });
}, 200_000);

/** Orders sheet: id → status. */
function statuses(s: ReliabilityStack): Record<string, string> {
  const [headers = [], ...rows] = sheetTable(s, 'Orders');
  const id = headers.indexOf('id');
  const status = headers.indexOf('status');
  return Object.fromEntries(rows.map((r) => [String(r[id]), String(r[status])]));
}
