/**
 * The days a flush's MERGEs read. orders and line_items are partitioned on placed_day, the order's
 * created_at in the store's time zone, and the MERGEs read only the partitions of the days their
 * orders fall on ("Query partitioned tables", pruning), so bytes billed follow the flush, not the
 * store. An order's row is matched only inside those days: were its day to move, the old row would
 * be left beside the new one. created_at is the order's placement and does not move; its day does
 * when the zone it is read in changes (the store's time zone, or the spreadsheet's when the store
 * names none). So every zone the rows were written in is kept, and each order's day in each of them
 * is among the days read: a row written under an earlier zone is found, and moved, by id.
 */
import { placedDateOf } from '../platform/calendar';
import { documentProperties } from '../platform/properties';
import type { JobContext } from '../sync/job-context';

export const DAY_ZONES_KEY = 'ma.sync.bigqueryDayZones';

/** The zones the tables' placed_day values were written in, as the run read them at its start. */
function recordedZones(ctx: JobContext): string[] {
  try {
    const zones = JSON.parse(ctx.state.readAtStart[DAY_ZONES_KEY] ?? '[]') as unknown;
    return Array.isArray(zones) ? zones.map(String) : [];
  } catch {
    return [];
  }
}

/** This run's zone among them, saved before its first MERGE writes a day in it. */
export function dayZones(ctx: JobContext): string[] {
  const zones = recordedZones(ctx);
  if (zones.indexOf(ctx.storeTimeZone) < 0) {
    zones.push(ctx.storeTimeZone);
    documentProperties().setProperty(DAY_ZONES_KEY, JSON.stringify(zones));
  }
  return zones;
}

/** The order's days in every zone (its placed_day first). */
export function orderDays(placedDay: string, createdAt: unknown, zones: readonly string[]): string[] {
  const days = [placedDay];
  for (const zone of zones) {
    const day = placedDateOf(createdAt, zone);
    if (day !== null && days.indexOf(day) < 0) days.push(day);
  }
  return days;
}
