/**
 * The spreadsheet itself names the trigger that runs its schedule: spreadsheet-level developer
 * metadata (PROJECT visibility: only this add-on sees it). A scheduled run Google starts without
 * the document cannot read the document properties, but it can open the spreadsheet by id and
 * read this, so a trigger that another editor's change left behind (schedule turned off, paused,
 * taken over) learns it and removes itself instead of firing for ever.
 */
const MARKER_KEY = 'ma.scheduleTrigger';
/** Kept (not removed) when the schedule stops, so "no schedule" differs from "never marked". */
const NONE = 'none';

function markers(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
  return spreadsheet.createDeveloperMetadataFinder().withKey(MARKER_KEY).find();
}

/** Records which trigger runs the schedule (null: none). */
export function markScheduleTrigger(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  triggerUid: string | null,
): void {
  const found = markers(spreadsheet);
  const value = triggerUid ?? NONE;
  if (found.length > 0) {
    found[0]!.setValue(value);
    for (const extra of found.slice(1)) extra.remove();
    return;
  }
  spreadsheet.addDeveloperMetadata(MARKER_KEY, value, SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
}

/** The trigger the spreadsheet names; null when none; undefined when it never named one (set by an older version). */
export function markedScheduleTrigger(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): string | null | undefined {
  const found = markers(spreadsheet);
  if (found.length === 0) return undefined;
  const value = found[0]!.getValue();
  return value && value !== NONE ? value : null;
}
