/**
 * The user's Sync log says what the syncs did, nothing else. What the first
 * scheduled run found of its environment is kept for the menu's "Check the add-on's environment",
 * not written into its Sync log row; "Check again" (the on-demand tie-out) logs as job "check"
 * with its result, never as an empty sync of "0 new, 0 updated".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { RunStepView, SidebarState } from '../../src/contract/sidebar';
import { scheduleTrigger, sheetTable, syncUntilCaughtUp } from './sync-support';

let stack: Stack;

function logRows(): Array<Record<string, unknown>> {
  const [header, ...rows] = sheetTable(stack, 'Sync log');
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [String(h), row[i]])));
}

beforeAll(async () => {
  stack = await startStack({ orders: 40, seed: 7 });
  await stack.connect();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('the first scheduled run', () => {
  it('keeps what it found for "Check the add-on\'s environment", not in the Sync log', async () => {
    const run = await stack.runtime.fireTrigger(await scheduleTrigger(stack), { document: true });
    expect(run.ok, run.error?.message).toBe(true);
    const rows = logRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(String(row.message)).not.toMatch(/scheduled run found|document properties|OAuth2 library/);
    const shown = await stack.runtime.run('showEnvironmentCheck', []);
    expect(shown.ok, shown.error?.message).toBe(true);
    expect(stack.runtime.ui.alerts.at(-1)!.prompt).toMatch(
      /^Scheduled run \([^)]+\): document properties yes, active spreadsheet yes, document lock yes/m,
    );
  });
});

describe('Check again (the on-demand tie-out)', () => {
  it('logs as job "check" with its result and no counts, and the sidebar lists it so', async () => {
    await syncUntilCaughtUp(stack);
    const before = logRows().length;
    const check = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(check.ok, check.error?.message).toBe(true);
    const result = (check.value as RunStepView).message;
    expect(result).toMatch(/^Tie-out: /);
    const rows = logRows();
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row.job).toBe('check');
    expect(row.outcome).toBe('ok');
    expect(row.message).toBe(result);
    for (const count of [
      'orders_added',
      'orders_updated',
      'orders_cancelled',
      'orders_gone',
      'line_items',
      'products',
      'variants',
      'pnl_days',
      'pages',
    ]) {
      expect([null, undefined, ''], count).toContain(row[count]);
    }
    const state = (await stack.runtime.run('getSidebarState', [])).value as SidebarState;
    expect(state.jobs[0]).toMatchObject({ job: 'check', label: 'Tie-out check', counts: null, message: result });
  });
});
