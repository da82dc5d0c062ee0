/**
 * Every global of the add-on can be typed into a cell (`=RUNSYNCSTEP()`): Google documents
 * `@customfunction` for autocomplete, not as a gate (apps-script-facts.md, "Unconfirmed, so
 * guarded"). Such a call runs as a custom function, where a token refresh would rotate the
 * refresh token and lose the new one (the connection dies), and writes fail half-way. So every
 * global that renews access, writes or starts a sync first makes sure it is not in a cell.
 *
 * A cell's execution has its document but no UI; a sidebar or menu call has both; a trigger passes
 * its event; an execution without a document (the OAuth callback, a clock trigger Google runs
 * without it) is never a cell.
 */
import { CONTAINER_UI_SCOPE, missingGoogleScopes } from './authorization-info';
import { hasActiveDocument } from './context';

export const CELL_FUNCTIONS =
  'PROFIT_SUMMARY, PROFIT_DAILY, PROFIT_MONTHLY, PROFIT_ORDER, PRODUCT_COST, PROFIT_TIEOUT and MA_FRESHNESS';

export class CalledFromCellError extends Error {
  constructor(name: string) {
    super(
      `${name} cannot run in a cell: it changes the spreadsheet or renews the connection, which a formula must never do. Use Extensions → Merchant Analytics (the menu or the sidebar) instead; the formulas the add-on offers are ${CELL_FUNCTIONS}.`,
    );
    this.name = 'Error';
  }
}

function isTriggerEvent(event: unknown): boolean {
  return (
    typeof event === 'object' && event !== null && typeof (event as { triggerUid?: unknown }).triggerUid === 'string'
  );
}

/**
 * Granular consent: a menu or sidebar call whose user withheld script.container.ui also finds no UI,
 * with Google's permission refusal ("You do not have permission to call SpreadsheetApp.getUi",
 * developers.google.com/apps-script/concepts/scopes) where a cell gets "Cannot call
 * SpreadsheetApp.getUi() from this context". It is not a cell when Google says that scope is not
 * granted (ScriptApp.getAuthorizationInfo) and the refusal is the permission one; anything else, a
 * ScriptApp that refuses too included, stays a cell (the stricter reading: refusing is safe).
 */
function uiScopeWithheld(refusal: unknown): boolean {
  if (!(refusal instanceof Error) || !/You do not have permission to call/.test(refusal.message)) return false;
  try {
    return missingGoogleScopes([CONTAINER_UI_SCOPE]).length > 0;
  } catch {
    return false;
  }
}

/** Throws CalledFromCellError when this execution is a cell's (custom-function) execution. */
export function refuseInCell(name: string, event?: unknown): void {
  if (isTriggerEvent(event) || !hasActiveDocument()) return;
  try {
    SpreadsheetApp.getUi();
  } catch (refusal) {
    if (uiScopeWithheld(refusal)) return;
    throw new CalledFromCellError(name);
  }
}
