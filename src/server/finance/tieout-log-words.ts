/** What the Sync log and a run's message say of a tie-out: how many days agree, which do not and what to do. */

/** Days named in the Sync log and the sidebar when they do not tie out (the sheet lists them all). */
export const NAMED_DAYS = 10;

export function tieoutText(
  days: number,
  failed: readonly string[],
  cutFrom: string | null,
  notCompared: readonly string[] = [],
): string {
  const window = cutFrom ? ` It covers ${cutFrom} onwards: your plan shows no older history.` : '';
  const mixed =
    notCompared.length === 0
      ? ''
      : ` Not compared: ${notCompared.slice(0, NAMED_DAYS).join(', ')}${notCompared.length > NAMED_DAYS ? ` and ${notCompared.length - NAMED_DAYS} more` : ''} ` +
        "(orders in another currency than the store's are in the service's figures; see Checks).";
  if (failed.length === 0 && notCompared.length > 0)
    return `Tie-out: Orders agree with the Daily P&L on ${days - notCompared.length} of ${days} days, and the P&L sheets with the service (see Checks).${mixed}${window}`;
  if (failed.length === 0)
    return `Tie-out: Orders agree with the Daily P&L on all ${days} days, and the P&L sheets with the service (see Checks).${window}`;
  const named =
    failed.slice(0, NAMED_DAYS).join(', ') +
    (failed.length > NAMED_DAYS ? ` and ${failed.length - NAMED_DAYS} more` : '');
  return (
    `Tie-out: ✗ on ${failed.length} of ${days} days (${named}; see Checks). Run Sync now to fetch their orders and P&L days again ` +
    `(edited Orders and P&L cells are put back).${mixed}${window}`
  );
}
