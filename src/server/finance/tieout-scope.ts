/**
 * The Checks sheet's scope line: what the tie-out proves, from which day, and how the Orders side
 * was taken this time; and the last figure re-check it names.
 */
import type { CellValue } from '../sheets/cells';
import { localTimeText } from '../platform/local-time';
import { buildRow } from '../sheets/rows';
import { CHECKED_AT_NOTE, CHECKS } from '../sheets/schema';
import type { TieoutView } from '../../contract/tieout-text';
import { readRecheck } from './recheck-record';

/**
 * The Checks sheet's last line: which figures it proves, and from which day (the sidebar says the
 * same), and how the Orders side was taken this time: read whole now, or the day sums the sync kept
 * since the whole sheet was read at `summedSince` (a hand edit of Orders shows from the next read),
 * or, `createdBySync`, the sums of the rows this run wrote into the Orders sheet it created.
 */
export function scopeCells(
  provenFrom: string,
  proves: string,
  today: string,
  checkedAt: number,
  timeZone: string,
  summedSince: number | null,
  createdBySync = false,
  elsewhere?: string,
): CellValue[] {
  const how = elsewhere
    ? ` ${elsewhere}`
    : createdBySync
      ? ' Orders side: the day sums of the rows this sync wrote into the Orders sheet it created (nothing else was in it); Checks → Run reads it in full.'
      : summedSince === null
        ? ' Orders sheet read in full for this check.'
        : ` Orders side: the day sums the sync kept as it wrote since the Orders sheet was read in full at ${localTimeText(summedSince, timeZone, null)}; a ✗ is only said after reading it in full, and Checks → Run reads it in full now (a scheduled run does once a day).`;
  const values: Record<string, unknown> = {
    period: `${provenFrom} … ${today}`,
    kind: 'scope',
    note: proves + how + ` ${CHECKED_AT_NOTE}`,
    checked_at: new Date(checkedAt).toISOString(),
  };
  return buildRow(CHECKS, null, values, timeZone);
}

/** The last figure re-check of every order, as the scope line names it (none before a pass completed one). */
export function recheckedView(
  readAtStart: Readonly<Record<string, string>>,
): Pick<TieoutView, 'recheckedAt' | 'recheckedFrom' | 'recheckedRepaired'> {
  const record = readRecheck(readAtStart);
  if (record.completedAt === null) return {};
  return {
    recheckedAt: new Date(record.completedAt).toISOString(),
    recheckedFrom: record.from,
    recheckedRepaired: record.repaired,
  };
}
