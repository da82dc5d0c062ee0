/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions"): a user may grant only some of the manifest's scopes, and triggers keep firing
 * after they do. Each user's granted set starts as every manifest scope; a test withdraws one with
 * `runtime.consent.withdraw(user, scope)` and grants it again with `grant(user)`.
 *
 * A FULL execution that calls a service needing a scope the user has not granted gets Google's
 * refusal, "You do not have permission to call UrlFetchApp.fetch. Required permissions:
 * https://www.googleapis.com/auth/script.external_request" (the wording public execution logs
 * show, e.g. boilermaker-ben/Google-Sheets-NFL-Pick-Ems-and-Survivor-Pool#16). Only FULL is
 * checked: "no other authorization mode requires that users grant authorization"
 * (reference/script/authorization-info). A manifest without `oauthScopes` lets Google detect the
 * scopes itself: nothing is checked then.
 */
import { needsBigQueryScope } from './spreadsheet/data-source-cost.js';
import type { CallInterceptor, ExecutionServiceContext, InterceptedCall } from './types.js';

const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const CONTAINER_UI = 'https://www.googleapis.com/auth/script.container.ui';
const EXTERNAL_REQUEST = 'https://www.googleapis.com/auth/script.external_request';
const SCRIPT_APP = 'https://www.googleapis.com/auth/script.scriptapp';
const SEND_MAIL = 'https://www.googleapis.com/auth/script.send_mail';
const USERINFO_EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const BIGQUERY = 'https://www.googleapis.com/auth/bigquery';

const UI_CLASSES = new Set(['Ui', 'Menu']);
const TRIGGER_METHODS = new Set(['newTrigger', 'getProjectTriggers', 'getUserTriggers', 'deleteTrigger']);

/** The scope a service call needs, after the scope each service's reference page lists; null when none. */
export function scopeOf(call: Pick<InterceptedCall, 'family' | 'className' | 'method'>): string | null {
  const { family, className, method } = call;
  if (family === 'SpreadsheetApp' || family === 'Sheets') {
    if (UI_CLASSES.has(className) || (className === 'SpreadsheetApp' && method === 'getUi')) return CONTAINER_UI;
    if (needsBigQueryScope(className, method)) return BIGQUERY;
    return SPREADSHEETS;
  }
  if (family === 'BigQuery') return BIGQUERY;
  if (family === 'UrlFetchApp' && (method === 'fetch' || method === 'fetchAll')) return EXTERNAL_REQUEST;
  if (family === 'ScriptApp' && className === 'ScriptApp' && TRIGGER_METHODS.has(method)) return SCRIPT_APP;
  if (family === 'MailApp' && method === 'sendEmail') return SEND_MAIL;
  if (family === 'Session' && (method === 'getActiveUser' || method === 'getEffectiveUser')) return USERINFO_EMAIL;
  return null;
}

/** What each user granted of the manifest's scopes (every one until a test withdraws some). */
export class ConsentLedger {
  private readonly withdrawn = new Map<string, Set<string>>();

  constructor(readonly manifestScopes: readonly string[]) {}

  /** False when the manifest lists no scopes: Google then detects and asks for them all at once. */
  get enforced(): boolean {
    return this.manifestScopes.length > 0;
  }

  withdraw(user: string, scope: string): void {
    if (!this.manifestScopes.includes(scope)) throw new Error(`${scope} is not one of the manifest's scopes`);
    let set = this.withdrawn.get(user);
    if (!set) this.withdrawn.set(user, (set = new Set()));
    set.add(scope);
  }

  /** The user grants `scopes` (default: every one still missing), as on Google's consent screen. */
  grant(user: string, scopes?: readonly string[]): void {
    const set = this.withdrawn.get(user);
    if (!set) return;
    for (const scope of scopes ?? [...set]) set.delete(scope);
  }

  granted(user: string): string[] {
    const set = this.withdrawn.get(user);
    return this.manifestScopes.filter((s) => !set?.has(s));
  }

  has(user: string, scope: string): boolean {
    return !this.enforced || !this.withdrawn.get(user)?.has(scope);
  }
}

export function missingScopeError(className: string, method: string, scope: string): Error {
  return new Error(`You do not have permission to call ${className}.${method}. Required permissions: ${scope}`);
}

/** Refuses, in a FULL execution, every call whose scope the executing user has not granted. */
export class ConsentGuard implements CallInterceptor {
  constructor(
    private readonly ledger: ConsentLedger,
    private readonly user: string,
    private readonly ctx: ExecutionServiceContext,
  ) {}

  around(call: InterceptedCall, proceed: () => unknown): unknown {
    if (this.ctx.authMode === 'FULL') {
      const scope = scopeOf(call);
      if (scope !== null && !this.ledger.has(this.user, scope))
        throw missingScopeError(call.className, call.method, scope);
    }
    return proceed();
  }
}
