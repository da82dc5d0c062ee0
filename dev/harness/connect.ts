import { approveAuthorization } from '../emulator/oauth/scripted-merchant';
import type { GasRuntime } from '../gas-runtime/index';
import { httpExchange } from './http';

export interface ConnectOptions {
  /** Store to pick on the consent page; default the first one offered. */
  storeId?: string;
  /** Press Deny instead of Approve. */
  deny?: boolean;
  /** Merchant user e-mail (a different user holds a different connection). */
  user?: string;
  /** The Google user whose sidebar connects (runs beginConnect and the poll); default the runtime's user. */
  googleUser?: string;
  /** False: no sidebar poll after the callback (the handoff stays pending). Default true. */
  sidebarPoll?: boolean;
  /** The spreadsheet whose sidebar connects (a copy the runtime made); default the runtime's workbook. */
  spreadsheetId?: string;
}

export interface ConnectResult {
  /** HTTP status of the runtime's /usercallback answer. */
  status: number;
  /** The page authCallback returned (or the runtime's refusal page). */
  html: string;
  /** The outcome the callback page declares (data-outcome), null when it has none. */
  outcome: string | null;
  authorizationUrl: string;
  /** Where the authorization server redirected the browser (the runtime's /usercallback). */
  callbackUrl: string;
  /** What the sidebar's poll after the callback answered (getSidebarState), null without a poll. */
  sidebar: unknown;
}

/** The global that hands out the authorization URL: the sidebar's beginConnect (returns { authorizationUrl }). */
export const AUTHORIZATION_URL_GLOBAL = 'beginConnect';

export async function readAuthorizationUrl(
  runtime: GasRuntime,
  globalName: string = AUTHORIZATION_URL_GLOBAL,
  googleUser?: string,
  spreadsheetId?: string,
): Promise<string> {
  const result = await runtime.run(globalName, [], {
    authMode: 'FULL',
    ...(googleUser !== undefined ? { user: googleUser } : {}),
    ...(spreadsheetId !== undefined ? { spreadsheetId } : {}),
  });
  if (!result.ok) throw new Error(`${globalName} failed: ${result.error?.name}: ${result.error?.message}`);
  const value = result.value;
  if (typeof value === 'string') return value;
  if (
    value &&
    typeof value === 'object' &&
    typeof (value as { authorizationUrl?: unknown }).authorizationUrl === 'string'
  ) {
    return (value as { authorizationUrl: string }).authorizationUrl;
  }
  throw new Error(`${globalName} returned no authorization URL`);
}

/**
 * The whole flow over HTTP, as a browser would do it: the global that returns the authorization
 * URL → GET it → the consent form → approve (or deny) with a store → follow the 302 to the
 * runtime's /usercallback, which runs authCallback → the page it returned.
 */
export async function connectOverHttp(
  runtime: GasRuntime,
  options: ConnectOptions = {},
  globalName?: string,
): Promise<ConnectResult> {
  const authorizationUrl = await readAuthorizationUrl(runtime, globalName, options.googleUser, options.spreadsheetId);
  const callbackUrl = await approveAuthorization(authorizationUrl, {
    ...(options.storeId !== undefined ? { storeId: options.storeId } : {}),
    ...(options.user !== undefined ? { email: options.user } : {}),
    decision: options.deny ? 'deny' : 'approve',
  });
  const page = await httpExchange(callbackUrl);
  // The callback runs without the document and hands its result to the spreadsheet; the sidebar
  // that started the flow polls getSidebarState, which adopts it (the handoff).
  const poll =
    options.sidebarPoll === false
      ? null
      : await runtime.run('getSidebarState', [], {
          authMode: 'FULL',
          ...(options.googleUser !== undefined ? { user: options.googleUser } : {}),
          ...(options.spreadsheetId !== undefined ? { spreadsheetId: options.spreadsheetId } : {}),
        });
  const outcome = /data-outcome="([a-z_]+)"/.exec(page.body);
  return {
    status: page.status,
    html: page.body,
    outcome: outcome ? outcome[1]! : null,
    authorizationUrl,
    callbackUrl,
    sidebar: poll && poll.ok ? poll.value : null,
  };
}
