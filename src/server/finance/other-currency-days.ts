/**
 * The days whose active orders include some in another currency than the store's, per currency:
 * the service's daily figures (in the store's currency, spec 2.8/2.9) then hold amounts of another
 * currency (spec 2.3: an order's amounts are in its own currency), summed in a way the add-on
 * cannot check. The tie-out says such a day cannot be compared (never a ✗ that Sync now cannot
 * clear); PROFIT_SUMMARY and PROFIT_DAILY say which of their days hold such orders.
 *
 * Counted by the tie-out from the Orders rows it reads (the same rule as sumOrdersByDay) and kept
 * in one document property, which a formula reads with the rest of the document state (one call).
 * Such orders are rare; past Google's 9 KB per value the newest days are kept and the older ones
 * are "not known" (a formula then says so, never that there are none).
 */
import { PROPERTY_VALUE_MAX_BYTES, utf8Bytes } from '../platform/property-size';
import { ORDERS, columnIndex } from '../sheets/schema';
import { dayKey } from './daily-figures';

type Properties = GoogleAppsScript.Properties.Properties;

/** YYYY-MM-DD → currency code → active orders in it. */
export type OtherCurrencyDays = Record<string, Record<string, number>>;

export interface OtherCurrencyStore {
  days: OtherCurrencyDays;
  /** Days before this one were not kept (size): not known. */
  before: string | null;
}

/** Under the run state's prefix: held with the run's other writes (held-writes.ts). */
export const OTHER_CURRENCY_DAYS_KEY = 'ma.sync.otherCurrencyDays';
const KEY = OTHER_CURRENCY_DAYS_KEY;

const COL = {
  status: columnIndex(ORDERS, 'status'),
  placed: columnIndex(ORDERS, 'placed_date'),
  currency: columnIndex(ORDERS, 'currency'),
};

/** From Orders rows at catalog positions, as sumOrdersByDay counts OrderDay.otherCurrency. */
export function otherCurrencyDaysOf(
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  storeCurrency: string | null,
): OtherCurrencyDays {
  const out: OtherCurrencyDays = {};
  if (storeCurrency === null) return out;
  for (const row of rows) {
    if (row[COL.status] !== 'active') continue;
    const day = dayKey(row[COL.placed]);
    const code = row[COL.currency];
    if (day === null || typeof code !== 'string' || code === '' || code === storeCurrency) continue;
    const held = (out[day] ??= {});
    held[code] = (held[code] ?? 0) + 1;
  }
  return out;
}

/** Orders in another currency per day, whatever the currency: what OrderDay.otherCurrency counts. */
export function countsByDay(days: OtherCurrencyDays): Map<string, number> {
  const out = new Map<string, number>();
  for (const [day, codes] of Object.entries(days))
    out.set(
      day,
      Object.values(codes).reduce((a, b) => a + b, 0),
    );
  return out;
}

/** Replaces what is kept (`was`: its text as the run read it); true when it changed (the formulas showing it must be recalculated). */
export function saveOtherCurrencyDays(props: Properties, days: OtherCurrencyDays, was: string | null): boolean {
  const newestFirst = Object.keys(days).sort((a, b) => (a < b ? 1 : -1));
  const stored: OtherCurrencyStore = { days: {}, before: null };
  for (const day of newestFirst) {
    stored.days[day] = days[day];
    if (utf8Bytes(JSON.stringify(stored)) > PROPERTY_VALUE_MAX_BYTES - 64) {
      delete stored.days[day];
      stored.before = day;
      break;
    }
  }
  const text = newestFirst.length === 0 ? null : JSON.stringify(stored);
  if (was === text) return false;
  if (text === null) props.deleteProperty(KEY);
  else props.setProperty(KEY, text);
  return true;
}

/** What was kept (the property's text; empty before the first tie-out, or when no order is in another currency). */
export function readOtherCurrencyDays(text: string | null): OtherCurrencyStore {
  try {
    const value = JSON.parse(text ?? 'null') as OtherCurrencyStore | null;
    if (value && typeof value.days === 'object' && value.days !== null) return value;
  } catch {
    // Not one this module wrote: as if none were kept.
  }
  return { days: {}, before: null };
}

/**
 * The words a formula over [start, end] shows: '' when none of its days holds an order in
 * another currency (as far as the last tie-out counted).
 */
export function otherCurrencyNote(
  stored: OtherCurrencyStore,
  start: string,
  end: string,
  storeCurrency: string | null,
): string {
  const codes: Record<string, number> = {};
  const days: string[] = [];
  for (const [day, byCode] of Object.entries(stored.days)) {
    if (day < start || day > end) continue;
    days.push(day);
    for (const [code, n] of Object.entries(byCode)) codes[code] = (codes[code] ?? 0) + n;
  }
  const own = storeCurrency ?? "the store's currency";
  const unknown =
    stored.before !== null && start <= stored.before
      ? ` Orders in other currencies before ${stored.before} are not listed here (too many to keep).`
      : '';
  if (days.length === 0) return unknown.trim();
  days.sort();
  const what = Object.keys(codes)
    .sort()
    .map((code) => `${codes[code]} in ${code}`)
    .join(', ');
  const when = days.length <= 5 ? days.join(', ') : `${days.slice(0, 5).join(', ')} and ${days.length - 5} more days`;
  return (
    `Mixed currencies: the service's figures for ${when} include orders in another currency than ${own} (${what}), ` +
    `added as the service adds them; those days cannot be proven against the Orders sheet (see Checks).${unknown}`
  );
}
