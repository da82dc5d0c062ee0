/**
 * A PROFIT_SUMMARY period that runs past the store's today holds figures only up to today (spec
 * 2.9: days are store-local; later days have none yet). Said beside the number, as PROFIT_MONTHLY
 * says "partial: month in progress" and a period wholly in the future says "no figures yet".
 */
import { addDays } from '../platform/calendar';

/** The note for a period [start, end] with start <= today < end; '' when the period has ended. */
export function inProgressNote(end: string, today: string | null): string {
  if (today === null || end <= today) return '';
  const rest = addDays(today, 1) === end ? end : `${addDays(today, 1)} to ${end}`;
  return `partial: period in progress, figures to today (${today} in the store's time zone); none yet for ${rest}`;
}
