/**
 * The spreadsheet itself names the trigger that runs its schedule: spreadsheet-level developer
 * metadata (PROJECT visibility: only this add-on sees it). A scheduled run Google starts without
 * the document cannot read the document properties, but it can open the spreadsheet by id and
 * read this, so a trigger that another editor's change left behind (schedule turned off, paused,
 * taken over) learns it and removes itself instead of firing for ever.
 */
const MARKER_KEY = 'ma.scheduleTrigger';

function markers(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
  return spreadsheet.createDeveloperMetadataFinder().withKey(MARKER_KEY).find();
}

/** Records which trigger runs the schedule (null: none). */
export function markScheduleTrigger(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, triggerUid: string | null): void {
  for (const marker of markers(spreadsheet)) marker.remove();
  if (triggerUid) spreadsheet.addDeveloperMetadata(MARKER_KEY, triggerUid, SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
}

/** The trigger the spreadsheet names; null when none; undefined when it never named one (set by an older version). */
export function markedScheduleTrigger(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string | null | undefined {
  const found = markers(spreadsheet);
  if (found.length === 0) return undefined;
  return found[0]!.getValue() || null;
}
