/**
 * The words of a failure e-mail: fixed text per kind of failure, never the run's own. The mail goes
 * from the connecting user's own account, so nothing any editor controls may be in it — not a
 * heading's text, a sheet's current name, the spreadsheet's name, nor the run's message that quotes
 * them (the sidebar and the Sync log show those details). Only the add-on's own words: the table
 * (the schema's sheet name), a column letter, the heading the schema puts there, and the
 * spreadsheet's URL, which is Google's.
 */
import { grantStep, purposesText } from '../auth/google-consent';
import { columnLetter } from '../sheets/a1';
import type { SheetPlace } from '../sheets/sheet-tags';

export interface NoticeFacts {
  code: string;
  connectionLost: boolean;
  place?: SheetPlace;
  /** The Google scopes not granted (google_consent): named in the add-on's own words. */
  missingScopes?: string[];
  /** The spreadsheet's URL when the run has its spreadsheet; null otherwise. */
  spreadsheetUrl: string | null;
}

export const NOTICE_SUBJECT = 'Merchant Analytics: the scheduled sync of your spreadsheet needs you';

const CAPACITY =
  "The spreadsheet is too close to Google's limit of 10 million cells for the orders still to come. Nothing more was written. " +
  'In the sidebar, choose "Keep only orders placed since…", or use a new spreadsheet for this store.';

const BY_CODE: Record<string, string> = {
  cell_limit: CAPACITY,
  backfill_too_large: CAPACITY,
  not_configured:
    'The add-on is not fully set up by whoever installed it for your organisation. Nothing was written. Contact them.',
  api_redirected:
    'The Merchant Analytics service answered from an address the add-on does not trust, so nothing was sent there. Contact whoever installed the add-on.',
  trigger_allowance:
    "Today's scheduled syncs used up their share of Google's daily trigger time. They continue tomorrow; Sync now in the sidebar does not count against it.",
  google_consent:
    'Google has not given the add-on every permission the sync needs (one was not granted, or was removed), so nothing was synced. Open the sidebar: it says which permission is missing and lets you grant it; the schedule resumes at its next run.',
  trigger_orphaned:
    'The scheduled sync could not open its spreadsheet for hours (it was deleted, or is no longer shared with you), and cannot remove its own trigger because Google has not given the add-on your permission to run the automatic sync. Open Merchant Analytics in any spreadsheet (Extensions → Merchant Analytics → Open sidebar) and grant it there; the trigger then removes itself at its next run.',
  store_changed:
    'The connection now reads another store than the one this spreadsheet holds, so nothing was written and the schedule is paused. Reconnect in the sidebar and choose the original store.',
};

const CONNECTION_LOST =
  'The connection to Merchant Analytics can no longer be used (access was revoked or has run out), so the schedule is paused. Open the sidebar and Reconnect.';

function sheetProblem(code: string, place: SheetPlace | undefined): string | null {
  const table = place ? `the ${place.table} sheet` : 'one of its data sheets';
  if (code === 'sheet_owner') {
    return `Where the sync writes ${table}, there is a sheet Merchant Analytics did not create, or one holding another store's data. Nothing was written.`;
  }
  if (code !== 'sheet_layout') return null;
  if (place && place.column === null && place.header !== null) {
    // A column found by its tag (column-tags.ts) that is gone: the heading named is the add-on's own key.
    return `In ${table}, the column "${place.header}" was deleted. Nothing was written. Undo the deletion (Edit → Undo), or delete the sheet and the next sync builds it again with every row.`;
  }
  if (!place || place.column === null || place.header === null) {
    return `The data of ${table} is on more than one sheet (a copy of the sheet?): keep one. Nothing was written.`;
  }
  const letter = columnLetter(place.column);
  return (
    `In ${table}, column ${letter} must be headed "${place.header}" and no longer is: a managed column was renamed, moved or deleted, or a column was inserted among them. Nothing was written.\n` +
    `Rename it back to "${place.header}" if its heading was changed; undo the change (Edit → Undo) if a column was inserted, moved or deleted.`
  );
}

/** Which permissions are missing and the way to grant them that works without them (the sidebar's own included). */
function consentProblem(facts: NoticeFacts): string | null {
  if (facts.code !== 'google_consent' || !facts.missingScopes || facts.missingScopes.length === 0) return null;
  return (
    'Google has not given the add-on every permission the sync needs (one was not granted, or was removed), so nothing was synced. ' +
    `Missing: your permission to ${purposesText(facts.missingScopes)}. ` +
    `${grantStep(facts.missingScopes)}; the schedule resumes at its next run.`
  );
}

function whatHappened(facts: NoticeFacts): string {
  return (
    sheetProblem(facts.code, facts.place) ??
    consentProblem(facts) ??
    BY_CODE[facts.code] ??
    (facts.connectionLost
      ? CONNECTION_LOST
      : 'The sync stopped on a problem only a person can fix. Nothing more was written.')
  );
}

export function noticeBody(facts: NoticeFacts): string {
  return [
    'The scheduled sync of your spreadsheet stopped on a problem that needs you:',
    '',
    whatHappened(facts),
    '',
    facts.spreadsheetUrl ? `Open the spreadsheet: ${facts.spreadsheetUrl}` : '',
    'Then open Extensions → Merchant Analytics → Open sidebar: it shows the details and what to do.',
    '',
    'You get at most one e-mail a day for each problem. To stop them, untick "E-mail me when a scheduled sync needs me" in the sidebar.',
  ].join('\n');
}
