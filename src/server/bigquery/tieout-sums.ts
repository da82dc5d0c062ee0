/**
 * The tie-out query's rows (one per day and currency) as the day sums the Sheets tie-out takes
 * from the Orders sheet (finance/order-day-sums.ts): the same shares per day, told apart by the
 * same currency rules, so the Checks sheet, the sidebar and the formulas' incomplete-cost counts
 * read the table's figures exactly as they read the sheet's.
 */
import { currencyCodeOf } from '../finance/cost-gaps';
import { emptyDay, OrderDaySums, type DaySums } from '../finance/order-day-sums';
import type { OtherCurrencyDays } from '../finance/other-currency-days';
import { FIGURES } from '../finance/tieout-figures';
import type { ResultRow } from './query';
import { centsColumn, RATIO_SEPARATOR, unknownColumn } from './tieout-sql';

export interface WarehouseDaySums {
  sums: OrderDaySums;
  /** Active orders in another currency than the store's, per day and currency (other-currency-days.ts). */
  otherCurrencyDays: OtherCurrencyDays;
}

const count = (row: ResultRow, column: string): number => {
  const n = Number(row[column] ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`The tie-out query gave ${column} = ${String(row[column])}.`);
  return n;
};

/**
 * A sum of cents, or null when it is beyond what a number holds exactly (an amount the table keeps
 * as NUMERIC but a double cannot add to the cent): that day's sum is then unknown, never rounded.
 */
const centsSum = (row: ResultRow, column: string): number | null => {
  const n = Number(row[column] ?? 0);
  return Number.isSafeInteger(n) ? n : null;
};

export function warehouseDaySums(rows: readonly ResultRow[], storeCurrency: string | null): WarehouseDaySums {
  const days = new Map<string, DaySums>();
  const otherCurrencyDays: OtherCurrencyDays = {};
  for (const row of rows) {
    const day = String(row.day);
    const currency = row.currency;
    let acc = days.get(day);
    if (!acc) days.set(day, (acc = emptyDay()));
    acc.rows += count(row, 'row_count');
    const active = count(row, 'active');
    acc.counted += active;
    // order-days.ts: an order with a currency other than the store's is counted apart, not summed.
    const other = storeCurrency !== null && currency !== null && currency !== '' && currency !== storeCurrency;
    if (other) {
      acc.other += active;
      if (active > 0) (otherCurrencyDays[day] ??= {})[currency] = active;
    } else {
      acc.count += active;
      FIGURES.forEach((f, i) => {
        const cents = centsSum(row, centsColumn(f));
        if (cents === null) acc!.unknown[i] += 1;
        else acc!.cents[i] += cents;
        acc!.unknown[i] += count(row, unknownColumn(f));
      });
      const words = row.inconsistent;
      if (words) acc.inconsistent.push(...words.split(RATIO_SEPARATOR).sort());
    }
    // cost-gaps.ts: incomplete costs per currency code, a row without one under the store's.
    const gapOrders = count(row, 'gap_orders');
    if (gapOrders > 0) {
      const code = currencyCodeOf(currency);
      const key = code === '' ? (storeCurrency ?? '') : code;
      const held = acc.gaps[key] ?? [0, 0, 0];
      const gapCents = centsSum(row, 'gap_cents');
      acc.gaps[key] = [
        held[0] + gapOrders,
        held[1] + (gapCents ?? 0),
        (held[2] ?? 0) + count(row, 'gap_unknown') + (gapCents === null ? 1 : 0),
      ];
    }
  }
  return { sums: new OrderDaySums(days, storeCurrency), otherCurrencyDays };
}
