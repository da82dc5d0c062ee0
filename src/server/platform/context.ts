/**
 * What this execution has of its spreadsheet. Google gives the OAuth callback no document, and may
 * run an add-on's clock trigger without one (apps-script-facts.md, "Where Google is stricter"):
 * SpreadsheetApp.getActive(), document properties, the document lock and cache are then null. A
 * scheduled run without its document binds the spreadsheet id it recorded when the schedule was
 * set (the schedule registry) and opens it by id. Every null context ends in a
 * MissingContextError that names what was missing, with a log line — never a TypeError.
 */

export class MissingContextError extends Error {
  readonly code = 'missing_context';
  readonly userMessage: string;

  constructor(
    readonly missing: string,
    readonly where: string,
  ) {
    super(`Merchant Analytics could not reach ${missing} in this execution (${where}).`);
    this.name = 'MissingContextError';
    this.userMessage = `Merchant Analytics could not reach ${missing} here (${where}). Open the spreadsheet and use the Merchant Analytics sidebar; if it keeps happening, tell whoever installed the add-on.`;
    console.error(`[context] ${missing} unavailable: ${where}`);
  }
}

let boundSpreadsheetId: string | null = null;
let openedSpreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet | null = null;
// Asked once per execution: every SpreadsheetApp call is a billed service call.
let activeKnown = false;
let active: GoogleAppsScript.Spreadsheet.Spreadsheet | null = null;
let activeId: string | null = null;

function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet | null {
  if (!activeKnown) {
    active = SpreadsheetApp.getActive();
    activeKnown = true;
  }
  return active;
}

/** A documentless execution (a scheduled run) names the spreadsheet it serves. */
export function bindSpreadsheet(id: string): void {
  boundSpreadsheetId = id;
  openedSpreadsheet = null;
}

/** The spreadsheet id bound by a documentless execution, else null. */
export function boundSpreadsheet(): string | null {
  return boundSpreadsheetId;
}

/** True when this execution has its document (SpreadsheetApp.getActive() is not null). */
export function hasActiveDocument(): boolean {
  return activeSpreadsheet() !== null;
}

/** The active spreadsheet, or the bound one opened by id; throws MissingContextError when neither. */
export function currentSpreadsheet(where: string): GoogleAppsScript.Spreadsheet.Spreadsheet {
  const document = activeSpreadsheet();
  if (document) return document;
  if (boundSpreadsheetId) return (openedSpreadsheet ??= SpreadsheetApp.openById(boundSpreadsheetId));
  throw new MissingContextError('the spreadsheet', where);
}

/** The id of the spreadsheet this execution serves, or null when it has none (the callback). */
export function currentSpreadsheetId(): string | null {
  const document = activeSpreadsheet();
  if (document) return (activeId ??= document.getId());
  return boundSpreadsheetId;
}

/** The id of a spreadsheet this module handed out, asked of the service once per execution. */
export function spreadsheetIdOf(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  if (spreadsheet === activeSpreadsheet()) return (activeId ??= spreadsheet.getId());
  if (spreadsheet === openedSpreadsheet && boundSpreadsheetId) return boundSpreadsheetId;
  return spreadsheet.getId();
}

/** The document cache, or null without a document (callers then do without a shared cache). */
export function documentCacheOrNull(): GoogleAppsScript.Cache.Cache | null {
  return CacheService.getDocumentCache();
}
