/** The Checks sheet's lines for the month-end closes: each close sheet beside its seal (the close seal). */
import type { CellValue } from '../sheets/cells';
import { buildRow } from '../sheets/rows';
import { CHECKS } from '../sheets/schema';
import type { CloseCheck } from './close-seal';
import { closeSheetName } from './close-sheet';

function noteOf(check: CloseCheck): string {
  const sheet = `"${closeSheetName(check.month)}"`;
  if (check.sealed === true) return `${sheet} holds exactly what the close saved.`;
  if (check.sealed === false)
    return (
      `${sheet} no longer holds what the close saved: a cell was changed since, and the Restatements compare ${check.month} against it. ` +
      'Put the sheet back (File → Version history), or close the month again to take its figures as the sheets hold them now.'
    );
  return `${sheet} was closed before the add-on kept a seal of its closes: not proven. Close the month again (Replace snapshot) to prove it from now on.`;
}

export function closeCheckCells(checks: readonly CloseCheck[], checkedAt: number, timeZone: string): CellValue[][] {
  return checks.map((check) =>
    buildRow(
      CHECKS,
      null,
      {
        period: check.month,
        kind: 'close',
        result: check.sealed === true ? '✓' : check.sealed === false ? '✗' : '',
        note: noteOf(check),
        checked_at: new Date(check.checkedAt ?? checkedAt).toISOString(),
      },
      timeZone,
    ),
  );
}

/** The Sync log's words for closes that no longer hold what they saved; '' when none. */
export function closeCheckWords(checks: readonly CloseCheck[]): string {
  const changed = checks.filter((c) => c.sealed === false).map((c) => closeSheetName(c.month));
  if (changed.length === 0) return '';
  return ` ✗ ${changed.join(', ')}: no longer ${changed.length === 1 ? 'holds' : 'hold'} what the close saved (see Checks).`;
}

/** The scope line's words for the closes: each close sheet against its seal, and how many cannot be proven. */
export function closeScopeWords(checks: readonly CloseCheck[]): string {
  if (checks.length === 0) return '';
  const unsealed = checks.filter((c) => c.sealed === null).length;
  return (
    ` Each month-end close sheet (${checks.length}) against what its close saved, cell for cell` +
    (unsealed > 0 ? `, except ${unsealed} closed before the add-on kept a seal of its closes (not proven).` : '.')
  );
}
