/**
 * Quotas that end real syncs, counted per user on the runtime clock.
 *
 * - Sheets API (developers.google.com/workspace/sheets/api/limits): 60 read and 60 write requests
 *   per minute per user per project, 300 per minute per project; over them the API answers 429
 *   "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per
 *   user' of service 'sheets.googleapis.com' for consumer 'project_number:…'." (the text public
 *   reports quote, e.g. github.com/AutomaApp/automa/issues/1342, Sage-Bionetworks/data_curator#110).
 *   Google refills the quota every minute; the runtime counts a sliding 60 s window (the stricter
 *   reading: no burst of 120 across a minute boundary).
 * - Trigger runtime (developers.google.com/apps-script/guides/services/quotas): 90 min a day per
 *   user (6 h for Google Workspace accounts), summed over every script and document; past it the
 *   user's triggers fail with "Service using too much computer time for one day". Sidebar and menu
 *   executions do not count. The runtime counts a sliding 24 h window (Google: the daily quotas
 *   refresh 24 h after… at a time that "varies between users": the window is the safe side).
 * - UrlFetch calls: 20,000 a day (100,000 for Workspace) → "Service invoked too many times for one
 *   day: urlfetch." (same page).
 * - Properties read/write: 50,000 a day (500,000 for Workspace), same page. Every call on a
 *   `Properties` store counts (getProperty, getProperties, getKeys, setProperty, setProperties,
 *   deleteProperty, deleteAllProperties); `PropertiesService.get…Properties()` only hands out the
 *   store and reads nothing. Past it: "Service invoked too many times for one day: properties."
 *   (the pattern of the urlfetch and email messages; public reports quote the same prefix for
 *   property writes, e.g. googleworkspace/apps-script-oauth2#217). The quota is the executing
 *   user's; whose a custom function's reads use is unconfirmed (apps-script-facts.md): the runtime
 *   charges the user the execution runs as.
 */
import type { RuntimeClock } from './clock.js';
import type { CallInterceptor, ExecutionServiceContext, InterceptedCall, QuotaUse } from './types.js';

export type AccountKind = 'consumer' | 'workspace';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
export const SHEETS_REQUESTS_PER_MINUTE_PER_USER = 60;
export const SHEETS_REQUESTS_PER_MINUTE_PER_PROJECT = 300;
const TRIGGER_MS_PER_DAY: Record<AccountKind, number> = { consumer: 90 * MINUTE_MS, workspace: 6 * 60 * MINUTE_MS };
const URL_FETCHES_PER_DAY: Record<AccountKind, number> = { consumer: 20_000, workspace: 100_000 };
export const TRIGGER_QUOTA_MESSAGE = 'Service using too much computer time for one day';
export const URL_FETCH_QUOTA_MESSAGE = 'Service invoked too many times for one day: urlfetch.';
const PROPERTY_CALLS_PER_DAY: Record<AccountKind, number> = { consumer: 50_000, workspace: 500_000 };
export const PROPERTIES_QUOTA_MESSAGE = 'Service invoked too many times for one day: properties.';

type SheetsKind = 'read' | 'write';

interface UserLedger {
  sheets: Record<SheetsKind, number[]>;
  /** The most requests of each kind any 60 s held (for the bench's writes-per-minute figure). */
  peak?: Record<SheetsKind, number>;
  urlFetches: number[];
  /** Every read or write on a Properties store (absent in a ledger saved before they were counted). */
  propertyCalls?: number[];
  /** Trigger executions: when they ended and how long they ran. */
  triggers: Array<{ at: number; ms: number }>;
}

function emptyUser(): UserLedger {
  return { sheets: { read: [], write: [] }, urlFetches: [], propertyCalls: [], triggers: [] };
}

/** Drops the entries older than the window (the arrays are in time order). */
function prune(times: number[], now: number, windowMs: number): number[] {
  let i = 0;
  while (i < times.length && times[i] <= now - windowMs) i++;
  if (i > 0) times.splice(0, i);
  return times;
}

const API_READS = new Set(['get', 'batchGet', 'batchGetByDataFilter', 'getByDataFilter', 'search']);

/** Every quota's use, shared by every execution of the runtime (and saved with its state). */
export class QuotaLedger {
  private users = new Map<string, UserLedger>();
  private readonly project: Record<SheetsKind, number[]> = { read: [], write: [] };

  constructor(
    private readonly clock: RuntimeClock,
    readonly account: AccountKind = 'consumer',
  ) {}

  private user(email: string): UserLedger {
    let ledger = this.users.get(email);
    if (!ledger) {
      ledger = emptyUser();
      this.users.set(email, ledger);
    }
    return ledger;
  }

  /** Counts one Sheets API request, or returns Google's refusal (nothing counted) when over a limit. */
  takeSheetsRequest(email: string, kind: SheetsKind): string | null {
    const now = this.clock.now();
    const own = prune(this.user(email).sheets[kind], now, MINUTE_MS);
    const all = prune(this.project[kind], now, MINUTE_MS);
    const metric = kind === 'read' ? 'Read requests' : 'Write requests';
    if (own.length >= SHEETS_REQUESTS_PER_MINUTE_PER_USER)
      return `Quota exceeded for quota metric '${metric}' and limit '${metric} per minute per user'`;
    if (all.length >= SHEETS_REQUESTS_PER_MINUTE_PER_PROJECT)
      return `Quota exceeded for quota metric '${metric}' and limit '${metric} per minute'`;
    own.push(now);
    all.push(now);
    const user = this.user(email);
    user.peak ??= { read: 0, write: 0 };
    user.peak[kind] = Math.max(user.peak[kind], own.length);
    return null;
  }

  /** Counts `n` UrlFetch calls, or returns false (nothing counted) when the day's allowance is spent. */
  takeUrlFetches(email: string, n: number): boolean {
    const now = this.clock.now();
    const calls = prune(this.user(email).urlFetches, now, DAY_MS);
    if (calls.length + n > URL_FETCHES_PER_DAY[this.account]) return false;
    for (let i = 0; i < n; i++) calls.push(now);
    return true;
  }

  /** Counts one Properties read or write, or returns false (nothing counted) when the day's allowance is spent. */
  takePropertyCall(email: string): boolean {
    const calls = this.propertyCallsOf(email);
    if (calls.length >= PROPERTY_CALLS_PER_DAY[this.account]) return false;
    calls.push(this.clock.now());
    return true;
  }

  propertyCallAllowance(): number {
    return PROPERTY_CALLS_PER_DAY[this.account];
  }

  private propertyCallsOf(email: string): number[] {
    const user = this.user(email);
    return prune((user.propertyCalls ??= []), this.clock.now(), DAY_MS);
  }

  triggerAllowanceMs(): number {
    return TRIGGER_MS_PER_DAY[this.account];
  }

  triggerMsUsed(email: string): number {
    const now = this.clock.now();
    const runs = this.user(email).triggers;
    while (runs.length > 0 && runs[0].at <= now - DAY_MS) runs.shift();
    return runs.reduce((sum, r) => sum + r.ms, 0);
  }

  /** What is left of the user's trigger runtime for the last 24 h. */
  triggerRemainingMs(email: string): number {
    return Math.max(0, this.triggerAllowanceMs() - this.triggerMsUsed(email));
  }

  recordTriggerRun(email: string, ms: number): void {
    this.user(email).triggers.push({ at: this.clock.now(), ms });
  }

  /** Starts a new measurement of peakPerMinute (the bench measures each workload apart). */
  resetPeakPerMinute(email: string): void {
    this.user(email).peak = { read: 0, write: 0 };
  }

  /** The most Sheets API requests of each kind the user sent in any 60 s so far (since the last reset). */
  peakPerMinute(email: string): Record<SheetsKind, number> {
    return { ...(this.user(email).peak ?? { read: 0, write: 0 }) };
  }

  use(email: string): QuotaUse {
    const now = this.clock.now();
    const u = this.user(email);
    return {
      user: email,
      sheetsReadsLastMinute: prune(u.sheets.read, now, MINUTE_MS).length,
      sheetsWritesLastMinute: prune(u.sheets.write, now, MINUTE_MS).length,
      urlFetchesLast24h: prune(u.urlFetches, now, DAY_MS).length,
      propertyCallsLast24h: this.propertyCallsOf(email).length,
      propertyCallAllowance: this.propertyCallAllowance(),
      triggerMsLast24h: this.triggerMsUsed(email),
      triggerAllowanceMs: this.triggerAllowanceMs(),
    };
  }

  toJSON(): unknown {
    return { users: Object.fromEntries(this.users), project: this.project };
  }

  load(state: unknown): void {
    const s = state as { users?: Record<string, UserLedger>; project?: Record<SheetsKind, number[]> } | undefined;
    if (!s || typeof s !== 'object') return;
    this.users = new Map(Object.entries(s.users ?? {}).map(([email, u]) => [email, { ...emptyUser(), ...u }]));
    if (s.project) Object.assign(this.project, s.project);
  }
}

/** The Sheets method as Google names it in errors: "spreadsheets.values.batchUpdate". */
function apiMethodName(className: string, method: string): string {
  const path = className
    .replace(/^Sheets\.?/, '')
    .split('.')
    .filter(Boolean)
    .map((p) => p.charAt(0).toLowerCase() + p.slice(1));
  return [...path, method].join('.');
}

/** Enforces the per-call quotas of one execution and reports the user's standing at its end. */
export class QuotaGuard implements CallInterceptor {
  constructor(
    private readonly ledger: QuotaLedger,
    private readonly user: string,
    private readonly ctx: ExecutionServiceContext,
    private readonly projectNumber: string,
  ) {}

  around(call: InterceptedCall, proceed: () => unknown): unknown {
    if (call.family !== 'SpreadsheetApp' && call.className.startsWith('Sheets')) this.sheetsRequest(call);
    else if (call.family === 'UrlFetchApp' && (call.method === 'fetch' || call.method === 'fetchAll')) {
      const n = call.method === 'fetchAll' ? (Array.isArray(call.args[0]) ? call.args[0].length : 0) : 1;
      if (!this.ledger.takeUrlFetches(this.user, n)) {
        this.ctx.counts.quotaRefusals += 1;
        throw new Error(URL_FETCH_QUOTA_MESSAGE);
      }
    } else if (call.family === 'PropertiesService' && call.className === 'Properties') {
      if (!this.ledger.takePropertyCall(this.user)) {
        this.ctx.counts.quotaRefusals += 1;
        throw new Error(PROPERTIES_QUOTA_MESSAGE);
      }
      this.ctx.counts.propertyCalls += 1;
    }
    return proceed();
  }

  private sheetsRequest(call: InterceptedCall): void {
    // Only the API's methods are requests (Sheets.newValueRange() and friends build objects locally).
    if (!/^Sheets\.Spreadsheets/.test(call.className)) return;
    const kind: SheetsKind = API_READS.has(call.method) ? 'read' : 'write';
    const refusal = this.ledger.takeSheetsRequest(this.user, kind);
    if (refusal !== null) {
      this.ctx.counts.quotaRefusals += 1;
      throw new Error(
        `API call to sheets.${apiMethodName(call.className, call.method)} failed with error: ${refusal} of service 'sheets.googleapis.com' for consumer 'project_number:${this.projectNumber}'. (HTTP 429 RESOURCE_EXHAUSTED)`,
      );
    }
    if (kind === 'read') this.ctx.counts.sheetsApiReads += 1;
    else this.ctx.counts.sheetsApiWrites += 1;
  }

  end(): void {
    this.ctx.counts.quota = this.ledger.use(this.user);
  }
}
