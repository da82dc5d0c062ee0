/** The OAuth2 library's service name; one service per spreadsheet (tokenServiceName). */
export const SERVICE_NAME = 'merchant-analytics';
/** Where versions before the per-user connection kept the token (document properties); read only to tidy up. */
export const LEGACY_TOKEN_PROPERTY_KEY = `oauth2.${SERVICE_NAME}`;

/**
 * The connecting user's token for one spreadsheet lives in THEIR user properties under
 * `oauth2.<this name>` (the library's key): the callback, that user's sidebar and the trigger they
 * created reach it with or without the document; no other editor can spend it.
 */
export function tokenServiceName(spreadsheetId: string): string {
  return `${SERVICE_NAME}.${spreadsheetId}`;
}

/** The user property the library keeps that token under. */
export function tokenPropertyOf(spreadsheetId: string): string {
  return `oauth2.${tokenServiceName(spreadsheetId)}`;
}

/** Document property: the access token (never the refresh token) and its expiry, for formulas and other editors. */
export const SHARED_ACCESS_TOKEN_KEY = 'ma.accessToken';

/**
 * User property of the connector: the same access token, written by a run without the document
 * (a scheduled run Google started without it cannot reach the document properties). A custom
 * function's getUserProperties() is the spreadsheet owner's store (developers.google.com/apps-script/
 * guides/sheets/functions, "Using Apps Script services": Properties "only gets the properties of the
 * spreadsheet owner"), so formulas read it when the connector owns the spreadsheet; no other user's
 * execution reads it, unlike the script-wide stores every user of the add-on shares.
 */
export function formulaTokenKey(spreadsheetId: string): string {
  return `ma.formulaToken.${spreadsheetId}`;
}

/** User property: what the documentless callback hands to the spreadsheet's sidebar (the handoff). */
export function handoffKey(spreadsheetId: string): string {
  return `ma.connectHandoff.${spreadsheetId}`;
}

/** Spec 5.1: every read scope this add-on uses, plus offline_access for a refresh token. */
export const REQUESTED_SCOPES: readonly string[] = [
  'store:read',
  'orders:read',
  'products:read',
  'profitability:read',
  'offline_access',
];

/** How long the library's state token lives (it calls withTimeout(3600)): a Connect click is good for this long. */
export const STATE_TOKEN_SECONDS = 3600;

/** User properties marking each open Connect flow: `ma.connectFlow.<uuid>`. */
export const FLOW_MARK_PREFIX = 'ma.connectFlow.';

/** The global Apps Script runs when the authorization server redirects back (one of the bundle's globals). */
export const CALLBACK_FUNCTION = 'authCallback';

/** Spec 5.2 paths, used when the discovery document cannot be read. */
export const DEFAULT_AUTHORIZE_PATH = '/api/auth/oauth2/authorize';
export const DEFAULT_TOKEN_PATH = '/api/auth/oauth2/token';
export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server';
export const ACCOUNT_PATH = '/api/v1/account';

/** Document properties written by this module (besides the library's token). */
export const CONNECTION_PROPERTY_KEY = 'ma.connection';
/** Document property: this spreadsheet refused the connection of the one it was copied from (the copy guard). */
export const COPIED_CONNECTION_PROPERTY_KEY = 'ma.connectionCopied';
export const STORE_TAG_PROPERTY_KEY = 'ma.storeTag';
export const STORE_TAG_NAME_PROPERTY_KEY = 'ma.storeTagName';

/**
 * A custom function runs for at most 30 s: it uses a stored access token only while it still has
 * this long to live, so the token cannot expire mid-execution.
 */
export const CUSTOM_FUNCTION_TOKEN_MARGIN_MS = 90_000;

/**
 * Triggers and the sidebar renew the access token once it has less than this left, so that the
 * token custom functions find stays usable until the next hourly run.
 */
export const PROACTIVE_REFRESH_BELOW_MS = 45 * 60_000;
