/**
 * Reading the emulator's truth orders as a controller does (the API's own fields, spec 3.1): the
 * day an order was placed in the store's zone, whether its costs are incomplete, whether it counts.
 */
type Json = Record<string, unknown>;

export const placedDayIn = (o: Json, timeZone: string): string =>
  new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone });
export const economics = (o: Json) =>
  o.economics as { cogs_source: string; cogs_coverage_pct: number; net_revenue: number };
export const incomplete = (o: Json): boolean =>
  economics(o).cogs_source === 'unknown' || economics(o).cogs_coverage_pct < 100;
export const active = (o: Json): boolean => o.canceled_at === null || o.canceled_at === undefined;

/** YYYY-MM-DD moved by n days (UTC calendar arithmetic). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
