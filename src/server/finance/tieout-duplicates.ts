/**
 * Rows of Orders or the Daily P&L whose key (order id, day) an earlier row of the sheet holds too:
 * a user's copy-paste, or a date typed over another day's. Pure. The sync writes a key's FIRST row
 * (the key index keeps it), so that is the row Sync now puts the service's figures in and keeps;
 * the later ones are the duplicates, named in Checks and cleared by Sync now (duplicate rows step).
 */
import { dayKey } from './daily-figures';
import type { TieoutRow } from './tieout-rows';

export interface DuplicateKey {
  /** The order id or the day. */
  key: string;
  /** The day it counts on (the order's placed day, or the day itself); null when unreadable. */
  day: string | null;
  /** 1-based sheet rows holding the key, first (kept) row first. */
  rows: number[];
}

/**
 * Keys listed in more than one row. `rows` are the sheet's rows from row 2 (as read); `keyOf` gives
 * a row's key or null (not a row of the table), `dayOf` the day it counts on.
 */
export function duplicateKeys(
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  keyOf: (row: ReadonlyArray<unknown>) => string | null,
  dayOf: (row: ReadonlyArray<unknown>) => string | null,
): DuplicateKey[] {
  const byKey = new Map<string, DuplicateKey>();
  rows.forEach((row, i) => {
    const key = keyOf(row);
    if (key === null) return;
    const held = byKey.get(key);
    if (held) held.rows.push(i + 2);
    else byKey.set(key, { key, day: dayOf(row), rows: [i + 2] });
  });
  return [...byKey.values()].filter((d) => d.rows.length > 1);
}

/** Orders rows (catalog positions) that repeat an order id. */
export function duplicateOrderRows(
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  idAt: number,
  placedAt: number,
): DuplicateKey[] {
  return duplicateKeys(
    rows,
    (row) => (typeof row[idAt] === 'string' && row[idAt] !== '' ? row[idAt] : null),
    (row) => dayKey(row[placedAt]),
  );
}

/** Daily P&L rows (date first) that repeat a day. */
export function duplicateDayRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): DuplicateKey[] {
  return duplicateKeys(
    rows,
    (row) => dayKey(row[0]),
    (row) => dayKey(row[0]),
  );
}

/** "ord_1 (rows 12, 301)": a duplicate as Checks names it. */
export function duplicateWords(d: DuplicateKey): string {
  return `${d.key} (rows ${d.rows.join(', ')})`;
}

/** The Daily P&L sheet's words for a day listed in several rows (the P&L sheets check). */
export function dayListedTwiceWords(d: DuplicateKey): string {
  return `the day is listed in ${d.rows.length} rows (rows ${d.rows.join(', ')}); Sync now keeps row ${d.rows[0]} with the service's figures and clears the others`;
}

/** A key found more than once, by the days it counts on and the words naming it. */
export interface NamedDays {
  days: readonly string[];
  words: string;
}

/**
 * The tie-out rows of the named days (and their months): ✗, with `note` of the words naming each
 * key there, whatever the sums say (a copy adds its key twice, or hides where no sum reads it).
 */
export function markNamedDays(
  rows: TieoutRow[],
  named: readonly NamedDays[],
  note: (words: readonly string[]) => string,
): TieoutRow[] {
  const byPeriod = new Map<string, string[]>();
  for (const n of named)
    for (const period of new Set(n.days.flatMap((day) => [day, day.slice(0, 7)])))
      byPeriod.set(period, [...(byPeriod.get(period) ?? []), n.words]);
  return rows.map((row) => {
    const words = byPeriod.get(row.period);
    if (!words) return row;
    const said = note(words);
    return { ...row, ok: false, note: row.note === '' ? said : `${row.note} ${said}` };
  });
}

/**
 * The tie-out rows of the days (and their months) of duplicated orders: ✗, with a note naming each
 * order and its rows.
 */
export function markDuplicateOrders(rows: TieoutRow[], duplicates: readonly DuplicateKey[]): TieoutRow[] {
  return markNamedDays(
    rows,
    duplicates.flatMap((d) => (d.day === null ? [] : [{ days: [d.day], words: duplicateWords(d) }])),
    (words) =>
      `Listed more than once in Orders: ${words.join(', ')}; ` +
      "Sync now keeps the first row of each with the service's figures and clears the others.",
  );
}
