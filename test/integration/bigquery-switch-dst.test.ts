/**
 * The move into BigQuery reads the sheets' instants as wall-clock serials in the spreadsheet's
 * zone. In the hour the end of daylight saving repeats, a serial is two instants: an order placed
 * in the second reading must reach its table as the service's instant (the truth), not an hour
 * early. The clocks go to that hour from wherever today is, so the test does not depend on the day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareTablesWithTruth, DATASET, PROJECT } from './bigquery-support';
import { compareWithTruth, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
const HOUR_MS = 3_600_000;

/** The wall-clock hour of an instant in a zone, as the zone's own clock shows it. */
function wallHour(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' })
    .format(new Date(ms))
    .slice(0, -3);
}

/** The first whole hour after `from` whose wall clock repeats the hour before it (the end of daylight saving). */
function repeatedHourAfter(from: number, timeZone: string): number {
  const start = Math.ceil(from / HOUR_MS) * HOUR_MS;
  for (let t = start; t < start + 400 * 24 * HOUR_MS; t += HOUR_MS)
    if (wallHour(t, timeZone) === wallHour(t - HOUR_MS, timeZone)) return t;
  throw new Error(`no daylight-saving end in ${timeZone} within 400 days`);
}

describe('moving an order placed in the hour daylight saving repeats', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      orders: 40,
      days: 60,
      seed: 2511,
      plan: 'plus',
      modelledTimeOnly: true,
      emulatorClockInStep: true,
    });
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('reaches BigQuery with the service’s instant, not the first reading of its wall-clock time', async () => {
    const timeZone = stack.runtime.workbook.timeZone;
    const now = Date.parse(((await stack.control('clock')) as { now: string }).now);
    // Half past the repeated hour's second reading (01:30 EST in New York, not 01:30 EDT).
    const target = repeatedHourAfter(now, timeZone) + HOUR_MS / 2;
    await stack.advanceClocks(target - now);
    const { created } = (await stack.control('orders', { count: 1 })) as { created: string[] };
    // Later orders move the feed's checkpoint past it (beyond the 5-minute overlap): after the move the feed does not read it again.
    await stack.advanceClocks(2 * HOUR_MS);
    await stack.control('orders', { count: 2 });
    expect((await stack.connect()).outcome).toBe('connected');
    await syncUntilCaughtUp(stack);
    expect(await compareWithTruth(stack)).toEqual(EXACT);
    const order = ((await stack.truth('orders')) as { data: Array<Record<string, unknown>> }).data.find(
      (o) => o.id === created[0],
    );
    expect(wallHour(Date.parse(String(order?.created_at)), timeZone)).toBe(
      wallHour(Date.parse(String(order?.created_at)) - HOUR_MS, timeZone),
    );

    const set = await stack.runtime.run('setOrdersDestination', [
      { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
    ]);
    expect(set.error?.message).toBeUndefined();
    await syncUntilCaughtUp(stack);
    expect(await compareTablesWithTruth(stack)).toEqual(EXACT);
  }, 240_000);
});
