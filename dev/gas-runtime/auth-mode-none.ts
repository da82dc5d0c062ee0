/**
 * AuthMode.NONE: "a mode that does not allow access to any services that require authorization"
 * (developers.google.com/apps-script/reference/script/auth-mode). It is the mode of an add-on's
 * onOpen in a document where the user has it installed but it is not enabled
 * (workspace/add-ons/concepts/editor-auth-lifecycle). Google's own onOpen sample on that page
 * reads properties and fetches a URL only outside NONE ("doesn't work in AuthMode.NONE").
 *
 * Refused here, with the refusal every other auth-mode rule uses: Properties, Cache, Lock,
 * UrlFetch, Mail, the Advanced Sheets and BigQuery services and ScriptApp's calls (triggers, state tokens, the
 * service URL) — the stricter reading: Google lists no service as open in NONE besides building
 * menus. `ScriptApp.getAuthorizationInfo` stays (it is how a script asks what it may do), and
 * SpreadsheetApp keeps its own rules (spreadsheet-app.ts: menus only, no document).
 */
import { permissionDenied, type CallInterceptor, type ExecutionServiceContext, type InterceptedCall } from './types.js';

const REFUSED_FAMILIES = new Set([
  'PropertiesService',
  'CacheService',
  'LockService',
  'UrlFetchApp',
  'MailApp',
  'Sheets',
  'BigQuery',
]);

function refusedInNone(call: InterceptedCall): boolean {
  if (REFUSED_FAMILIES.has(call.family)) return true;
  return call.family === 'ScriptApp' && call.method !== 'getAuthorizationInfo';
}

export class AuthModeNoneGuard implements CallInterceptor {
  constructor(private readonly ctx: ExecutionServiceContext) {}

  around(call: InterceptedCall, proceed: () => unknown): unknown {
    if (this.ctx.authMode === 'NONE' && refusedInNone(call)) throw permissionDenied(`${call.className}.${call.method}`);
    return proceed();
  }
}
