/**
 * Days after the store's today have no figures yet (spec 2.9: days are store-local). The API
 * answers them with zeros, which read as a day with no sales: formulas never ask for them, show
 * them empty, and a period wholly after today is an empty answer with a note, never 0.
 */
import { addDays } from '../platform/calendar';
import { dayCell, type Table } from './tables';

export function futureNote(start: string, end: string, today: string): string {
  const period = start === end ? start : `${start} to ${end}`;
  return `no figures yet: ${period} is after today (${today} in the store's time zone)`;
}

/** The header with one row under it: the note, then empty cells (an answer stays rectangular). */
export function noteUnder(header: Table[number], note: string): Table {
  return [header, [note, ...header.slice(1).map(() => '')]];
}

/** One row per day from `from` to `to`: the day as a date, every figure empty. */
export function emptyDays(from: string, to: string, width: number, timeZone: string): Table {
  const rows: Table = [];
  for (let day = from; day <= to; day = addDays(day, 1))
    rows.push([dayCell(day, timeZone), ...Array.from({ length: width - 1 }, () => '')]);
  return rows;
}

/** The period's last day the API is asked for: today when the period runs past it. */
export function lastDayWithFigures(end: string, today: string | null): string {
  return today !== null && end > today ? today : end;
}
