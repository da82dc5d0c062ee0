/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions"): a user may grant the add-on only some of the manifest's Google scopes, and their
 * schedule's trigger keeps firing and fails at the first call that needs a missing one. The add-on
 * asks Google which of the scopes a piece of work needs are granted
 * (ScriptApp.getAuthorizationInfo(FULL, scopes)) before it starts that work: the sidebar shows what
 * is missing with the link that grants it, Sync now and Connect call ScriptApp.requireScopes (on
 * Google that ends the call and shows the consent screen), and a scheduled run stops with a message.
 */
import type { GoogleConsentView } from '../../contract/google-consent';
import { authorizationInfo, CONTAINER_UI_SCOPE } from '../platform/authorization-info';

export { CONTAINER_UI_SCOPE, missingGoogleScopes } from '../platform/authorization-info';

export const SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
export const EXTERNAL_REQUEST_SCOPE = 'https://www.googleapis.com/auth/script.external_request';
const SCRIPT_APP_SCOPE = 'https://www.googleapis.com/auth/script.scriptapp';
const SEND_MAIL_SCOPE = 'https://www.googleapis.com/auth/script.send_mail';
export const USERINFO_EMAIL_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';
/** Asked only of a spreadsheet whose orders go to BigQuery (the destination setting): see DESTINATION_SCOPES. */
export const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';

/** What each of the manifest's scopes lets the add-on do, in the user's words. */
const SCOPE_PURPOSE: Record<string, string> = {
  [SPREADSHEETS_SCOPE]: 'write the store’s data into this spreadsheet',
  [EXTERNAL_REQUEST_SCOPE]: 'connect to Merchant Analytics',
  [CONTAINER_UI_SCOPE]: 'show its sidebar and menu',
  [SCRIPT_APP_SCOPE]: 'run the automatic sync',
  [SEND_MAIL_SCOPE]: 'e-mail you when a scheduled sync needs you',
  [USERINFO_EMAIL_SCOPE]: 'know which Google account you use',
  [BIGQUERY_SCOPE]: 'write the store’s orders into your BigQuery dataset',
};

/**
 * The manifest's scopes every spreadsheet needs (appsscript.json oauthScopes, less BigQuery's: a
 * spreadsheet whose orders stay in the sheets never calls BigQuery, so withholding it changes nothing there).
 */
export const ADD_ON_SCOPES = Object.keys(SCOPE_PURPOSE).filter((scope) => scope !== BIGQUERY_SCOPE);
/** What a sync into BigQuery needs besides SYNC_SCOPES: its Jobs, Tables and Datasets, and Connected Sheets. */
export const BIGQUERY_DESTINATION_SCOPES = [BIGQUERY_SCOPE];
/** A sync (Sync now, the schedule): the sheets and the API. */
export const SYNC_SCOPES = [SPREADSHEETS_SCOPE, EXTERNAL_REQUEST_SCOPE];
/** The schedule: seeing, creating and removing the user's triggers (ScriptApp). */
export const SCHEDULE_SCOPES = [SCRIPT_APP_SCOPE];
/** Connect: the API's token endpoint and discovery (spec 5.2), and the sidebar that opens it. */
export const CONNECT_SCOPES = [EXTERNAL_REQUEST_SCOPE];
/** The sidebar (and the menu's dialogs): SpreadsheetApp.getUi. */
export const SIDEBAR_SCOPES = [CONTAINER_UI_SCOPE];

/**
 * What the sidebar shows when the user has not granted every scope; null when nothing is missing.
 * `extra`: scopes this spreadsheet's settings need besides (BigQuery's, when its orders go there).
 */
export function googleConsentView(extra: string[] = []): GoogleConsentView | null {
  const scopes = [...ADD_ON_SCOPES, ...extra];
  const info = authorizationInfo(scopes);
  if (info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED) return null;
  const granted = info.getAuthorizedScopes() ?? [];
  const missing = scopes.filter((scope) => granted.indexOf(scope) < 0);
  if (missing.length === 0) return null;
  return { missing: missing.map((scope) => SCOPE_PURPOSE[scope]), authorizationUrl: info.getAuthorizationUrl() };
}

/** Before work that needs `scopes`: on Google, a missing one ends the call and shows the consent screen. */
export function requireGoogleScopes(scopes: string[]): void {
  ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, scopes);
}

/** What changing the schedule says when Google has not given the add-on the permission it needs. */
export function scheduleConsentMessage(missing: string[]): string {
  return `Google has not given the add-on your permission to ${purposesText(missing)}: grant it with the link at the top of the sidebar, then set the schedule again.`;
}

/** The purposes of `missing` (scope URLs) in the user's words, for a message. */
export function purposesText(missing: string[]): string {
  return missing.map((scope) => SCOPE_PURPOSE[scope] ?? scope).join('; ');
}

/**
 * How the user grants what is missing. The sidebar's link does it while the sidebar can open; without
 * script.container.ui it cannot, and the menu's "Open sidebar" is the way: it calls requireScopes,
 * which "ends the current execution and renders an authorization prompt to request the missing
 * scopes" (developers.google.com/apps-script/reference/script/script-app#requireScopes). The menu
 * itself is built in onOpen's AuthMode NONE/LIMITED, which asks for no grant (reference/script/authorization-info).
 */
export function grantStep(missing: string[]): string {
  if (missing.indexOf(CONTAINER_UI_SCOPE) < 0)
    return 'Open the add-on’s sidebar (Extensions → Merchant Analytics → Open sidebar) and grant it there';
  return (
    'Choose Extensions → Merchant Analytics → Open sidebar: Google first asks you to let the add-on show its sidebar and menu ' +
    '(without that permission the sidebar cannot open), then the sidebar shows anything still missing with the link that grants it'
  );
}

/** What a scheduled run that stopped for missing scopes says (Sync log, logs); `missing` includes the sidebar's scope when that is missing too. */
export function missingConsentMessage(missing: string[]): string {
  return (
    `The scheduled sync stopped: Google has not given the add-on your permission to ${purposesText(missing)}. ` +
    `${grantStep(missing)}; the schedule resumes at its next run.`
  );
}
