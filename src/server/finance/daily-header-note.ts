/**
 * The note on the Daily P&L's first header cell: what the plan's history window leaves out (spec
 * 8.3) and which days' service figures hold orders in another currency (other-currency-days), where
 * a reader of the sheet's figures looks first. The Orders sheet carries the window part alone.
 */
import { otherCurrencyNote, type OtherCurrencyStore } from './other-currency-days';

/** "Covers 2025-03-17 … 2025-06-14: your plan shows 90 days of history; Merchant Analytics does not return orders placed before 2025-03-17 on this plan. …" */
export function historyWindowNote(from: string, today: string, what: string): string {
  const days = Math.max(
    1,
    Math.round((Date.parse(today + 'T00:00:00Z') - Date.parse(from.slice(0, 10) + 'T00:00:00Z')) / 86_400_000),
  );
  const day = from.slice(0, 10);
  // After a plan downgrade the rows synced under the earlier plan stay: the note says what they are.
  return (
    `Covers ${day} … ${today}: your plan shows ${days} days of history; Merchant Analytics does not return ${what} before ${day} on this plan. ` +
    `Rows of them kept from an earlier plan are as last synced (synced_at), no longer updated, and not proven by Checks.`
  );
}

/** The Daily P&L header note; null brings back the schema's own. */
export function dailyHeaderNote(
  meta: { historyAvailableFrom: string | null; truncated: boolean; storeCurrency: string | null },
  today: string,
  mixed: OtherCurrencyStore,
): string | null {
  const parts = [
    meta.truncated && meta.historyAvailableFrom ? historyWindowNote(meta.historyAvailableFrom, today, 'days') : '',
    otherCurrencyNote(mixed, '0000-01-01', '9999-12-31', meta.storeCurrency),
  ].filter((p) => p !== '');
  return parts.length === 0 ? null : parts.join('\n\n');
}
