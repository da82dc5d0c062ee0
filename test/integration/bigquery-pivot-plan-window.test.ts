/**
 * A store on the Starter plan (90 days of history, spec 8.3) whose orders go to BigQuery: the month
 * the plan's window cuts is labelled partial in the pivot, as the Monthly P&L labels it, and the
 * service agrees that month is cut (the summary's period starts later than asked). Every other month
 * is its plain YYYY-MM and equals the summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { DATASET, PROJECT } from './bigquery-support';
import { PIVOT_SHEET, pivotCents, summaryCents } from './bigquery-pivot-support';
import { sheetTable, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    orders: 600,
    seed: 2599,
    plan: 'starter',
    days: 200,
    modelledTimeOnly: true,
    emulatorClockInStep: true,
  });
  expect((await stack.connect()).outcome).toBe('connected');
  const set = await stack.runtime.run('setOrdersDestination', [
    { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
  ]);
  expect(set.error?.message).toBeUndefined();
  await syncUntilCaughtUp(stack);
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('the pivot under a plan window', () => {
  it("the month the plan's history cuts is labelled partial; the others are plain and equal the summary", async () => {
    const figures = await pivotCents(stack);
    const labels = sheetTable(stack, PIVOT_SHEET)
      .slice(1)
      .map((r) => String(r[1]))
      .filter((l) => l !== '');
    const { access_token: token } = (await stack.control('tokens', { scope: 'profitability:read' })) as Json;
    const first = labels[0].slice(0, 7);
    const res = await fetch(
      `${stack.apiUrl}/api/v1/profitability/summary?start_date=${first}-01&end_date=${first}-28`,
      {
        headers: { Authorization: `Bearer ${String(token)}` },
      },
    );
    const start = ((await res.json()) as { data: { period: { start: string } } }).data.period.start;
    // The service cuts the first month: its history starts after the 1st.
    expect(start > `${first}-01`).toBe(true);
    expect(labels[0]).toBe(`${first} (partial: plan history)`);
    for (const label of labels.slice(1)) expect(label).toMatch(/^\d{4}-\d{2}$/);
    const currency = String((((await stack.truth('store')) as Json).store as Json).currency);
    for (const month of labels.slice(1))
      expect(figures.get(`${currency} ${month}`)).toEqual(await summaryCents(stack, month));
  }, 300_000);
});
