/**
 * Formulas owed a recalculation: a formula that ran while the store could not be reached (after
 * Disconnect, or while a sync failed) keeps its "not connected… Click Connect" answer, because
 * Sheets recalculates a custom function only when its formula or a referenced cell changes
 * (developers.google.com/apps-script/guides/sheets/functions; apps-script-facts.md). Disconnect
 * and a failed sync mark them owed; the first successful sync after it re-enters them (the runner)
 * even when it wrote nothing, and a reconnect re-enters them at once (the sidebar's Connect).
 * A document property: one flag per spreadsheet, never a token.
 */
import { documentProperties } from '../platform/properties';

const OWED_KEY = 'ma.formulasOwed';

export function markFormulasOwed(): void {
  documentProperties().setProperty(OWED_KEY, '1');
}

export function formulasOwed(): boolean {
  return documentProperties().getProperty(OWED_KEY) === '1';
}

/** Written '0', not deleted: under a sync run's lock it then goes with the run's last checkpoint (held writes store deletes one call each). */
export function clearFormulasOwed(): void {
  documentProperties().setProperty(OWED_KEY, '0');
}
