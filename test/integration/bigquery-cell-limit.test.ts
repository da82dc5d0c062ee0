/**
 * Why BigQuery at all: a store whose orders would not fit in the spreadsheet's 10 M
 * cells. With the sheets as destination its first backfill is refused (sync-cells-window); with
 * BigQuery the orders need no cells, so the same spreadsheet syncs the whole store into the
 * tables, equal to the emulator's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, DATASET, PROJECT } from './bigquery-support';
import { syncUntilCaughtUp } from './sync-support';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 4000, seed: 26, modelledTimeOnly: true, emulatorClockInStep: true });
  await stack.connect();
  // A sheet of the user's own leaves 400,000 of the 10 M cells free: fewer than 4,000 orders with their line items need.
  stack.runtime.workbook.insertSheet('Archive', undefined, { rows: 480_000, columns: 20 });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a store too big for the spreadsheet, synced into BigQuery', () => {
  it('is not refused for the cells its orders would take in sheets, and equals the truth', async () => {
    const set = await stack.runtime.run('setOrdersDestination', [
      { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
    ]);
    expect(set.error?.message).toBeUndefined();
    await syncUntilCaughtUp(stack);
    expect(await compareTablesWithTruth(stack)).toEqual({
      mismatches: [],
      missing: [],
      unexpected: [],
      duplicates: [],
    });
  }, 120_000);
});
