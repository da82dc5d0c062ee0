/**
 * Types shared by the runtime's executor and every host-side service (including the spreadsheet
 * engineer's SpreadsheetApp / Advanced Sheets in ./spreadsheet).
 *
 * How a host-side service is exposed to the script (the generic bridge's handles):
 * - A method's return value goes back BY VALUE when it is a primitive, Date, array or plain object,
 *   and as a HANDLE when it is a class instance.
 * - A handle exposes every method along the prototype chain EXCEPT `constructor`, names starting
 *   with `_`, and names listed in a static `hostOnlyMethods` array on the class.
 * - Own properties whose name starts with an UPPER-CASE letter are exposed too: a class instance
 *   becomes a nested handle (`Sheets.Spreadsheets.Values`), a plain object is copied as a constant
 *   enum (`SpreadsheetApp.DeveloperMetadataVisibility`, `ScriptApp.AuthMode`). Lower-case fields
 *   (your private state) are never visible to the script.
 * - Calls are counted as `<ClassName>.<method>`; a class may set `static gasName = 'Range'` when
 *   its TypeScript name differs from Google's.
 * - The bridge counts calls and cells (from args/results, by the cost model's costOf); services do not
 *   touch `counts` except UrlFetchApp, which records its requests.
 * - Throw `new Error(googleMessage)`: the script receives an Error with that message.
 */

export type AuthMode = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';

export interface FetchRecord {
  method: string;
  url: string;
  status: number;
  bytes: number;
}

export interface ExecutionCounts {
  serviceCalls: number;
  /** e.g. "Range.setValues": 3 */
  byMethod: Record<string, number>;
  /** SpreadsheetApp + Advanced Sheets calls only. */
  sheetsCalls: number;
  /** The sheetsCalls by "<Class>.<method>" (byMethod restricted to SpreadsheetApp and Advanced Sheets). */
  sheetsByMethod: Record<string, number>;
  cellsRead: number;
  cellsWritten: number;
  urlFetches: number;
  /** Method, URL as sent, status and size: never headers or payloads (they carry secrets). */
  requests: FetchRecord[];
  modelledMs: number;
  /** Advanced Sheets requests as Google's quota counts them (the QuotaLedger): reads and writes. */
  sheetsApiReads: number;
  sheetsApiWrites: number;
  /** Calls refused by a quota (Sheets per minute, UrlFetch per day): each threw Google's error. */
  quotaRefusals: number;
  /** Reads and writes on a Properties store, as the daily Properties quota counts them (the QuotaLedger). */
  propertyCalls: number;
  /** The user's use of the quotas when the execution ended, on the runtime clock. */
  quota?: QuotaUse;
  /** modelledMs per root service ("SpreadsheetApp", "Sheets", "UrlFetchApp", "PropertiesService", ...). */
  modelledMsByService: Record<string, number>;
  /** Time spent in Utilities.sleep (backoff, rate-limit waits, pacing): on the clock, not in modelledMs. */
  sleptMs: number;
  /** CPU time of the execution's worker thread (WorkerUsage); null when unknown (no /proc, or ended by the time limit). */
  workerCpuMs: number | null;
  /** Largest V8 heap in use in the execution's worker isolate, sampled at every service call and at the end (0 when unknown). */
  peakHeapBytes: number;
}

/** One user's standing against the quotas the runtime enforces, as the QuotaGuard reports it at an execution's end. */
export interface QuotaUse {
  user: string;
  sheetsReadsLastMinute: number;
  sheetsWritesLastMinute: number;
  urlFetchesLast24h: number;
  /** Properties reads and writes in the last 24 h, and the day's allowance (the QuotaLedger). */
  propertyCallsLast24h: number;
  propertyCallAllowance: number;
  triggerMsLast24h: number;
  triggerAllowanceMs: number;
}

/**
 * A host-side hook around every service call of an execution (the Sheets write buffer, the
 * quotas). `around` may throw (the script receives the error) or run `proceed` (the call itself).
 */
export interface CallInterceptor {
  around(call: InterceptedCall, proceed: () => unknown): unknown;
  /** The execution ended: `completed` is false when the time limit or a kill point ended it. */
  end?(completed: boolean): void;
}

export interface InterceptedCall {
  /** The root service ("SpreadsheetApp", "Sheets", "UrlFetchApp", ...). */
  family: string;
  /** The counted class name, e.g. "Range", "Sheets.Spreadsheets.Values". */
  className: string;
  method: string;
  target: object;
  args: unknown[];
}

export function emptyCounts(): ExecutionCounts {
  return {
    serviceCalls: 0,
    byMethod: {},
    sheetsCalls: 0,
    sheetsByMethod: {},
    cellsRead: 0,
    cellsWritten: 0,
    urlFetches: 0,
    requests: [],
    modelledMs: 0,
    sheetsApiReads: 0,
    sheetsApiWrites: 0,
    quotaRefusals: 0,
    propertyCalls: 0,
    modelledMsByService: {},
    sleptMs: 0,
    workerCpuMs: null,
    peakHeapBytes: 0,
  };
}

export interface ExecutionServiceContext {
  authMode: AuthMode;
  /** The spreadsheet's time zone (IANA). */
  timeZone: string;
  executionId: string;
  counts: ExecutionCounts;
  /** The Google user the execution runs as (`run(..., { user })`; a trigger runs as its creator). */
  userEmail?: string;
  /**
   * False when the execution has no document (the OAuth callback; a clock trigger fired with
   * `{ document: false }`): the active spreadsheet, document properties, lock and cache are null.
   */
  document?: boolean;
  /** After a lock wait: the holder's time has passed for this execution too (set by the Execution). */
  syncClock?: () => void;
}

/** True unless the execution was started without a document. */
export function hasDocument(ctx: ExecutionServiceContext): boolean {
  return ctx.document !== false;
}

/** Google's refusal for what an auth mode forbids, e.g. writes in a custom function. */
export function permissionDenied(methodName: string): Error {
  return new Error(`You do not have permission to call ${methodName}`);
}

/** Throws Google's refusal when the execution is a custom function (read-only, no UI). */
export function refuseInCustomFunction(ctx: ExecutionServiceContext, methodName: string): void {
  if (ctx.authMode === 'CUSTOM_FUNCTION') throw permissionDenied(methodName);
}

/** What a sidebar or dialog receives: the runtime's HtmlOutput implements it. */
export interface HtmlOutputLike {
  getContent(): string;
  getTitle(): string;
  getWidth(): number;
  getHeight(): number;
}

export type MenuItemRecord =
  | { kind: 'item'; caption: string; functionName: string }
  | { kind: 'separator' }
  | { kind: 'submenu'; menu: MenuRecord };

export interface MenuRecord {
  title: string;
  /** true for `createAddonMenu()` (the add-on's entry under Extensions). */
  addon: boolean;
  items: MenuItemRecord[];
}

export interface SidebarRecord {
  title: string;
  html: string;
  executionId: string;
}

export interface DialogRecord {
  title: string;
  html: string;
  modal: boolean;
  width: number;
  height: number;
  executionId: string;
}

export interface AlertRecord {
  title: string;
  prompt: string;
  buttons: string;
  /** The button the (simulated) user pressed, e.g. "OK". */
  response: string;
}

/** An authorization prompt ScriptApp.requireScopes showed: the scopes the user has not granted. */
export interface AuthorizationPromptRecord {
  user: string;
  scopes: string[];
  executionId: string;
}

export interface ToastRecord {
  message: string;
  title: string;
  timeoutSeconds: number;
}

/**
 * Everything the scripts showed the user, across executions. SpreadsheetApp.getUi() records here;
 * tests and the playground read it. Tests queue the user's answers to alerts with `answerAlerts`.
 */
export class UiLog {
  readonly menus: MenuRecord[] = [];
  readonly sidebars: SidebarRecord[] = [];
  readonly dialogs: DialogRecord[] = [];
  readonly alerts: AlertRecord[] = [];
  readonly toasts: ToastRecord[] = [];
  readonly authorizationPrompts: AuthorizationPromptRecord[] = [];
  private readonly queuedAlertResponses: string[] = [];

  addMenu(menu: MenuRecord): void {
    const existing = this.menus.findIndex((m) => m.title === menu.title && m.addon === menu.addon);
    if (existing >= 0) this.menus.splice(existing, 1, menu);
    else this.menus.push(menu);
  }

  showSidebar(sidebar: SidebarRecord): void {
    this.sidebars.push(sidebar);
  }

  showDialog(dialog: DialogRecord): void {
    this.dialogs.push(dialog);
  }

  /** Records an alert and returns the button name the user pressed (queued answer, else "OK"). */
  alert(alert: Omit<AlertRecord, 'response'>): string {
    const response = this.queuedAlertResponses.shift() ?? 'OK';
    this.alerts.push({ ...alert, response });
    return response;
  }

  toast(toast: ToastRecord): void {
    this.toasts.push(toast);
  }

  /** Queues the buttons the simulated user will press on the next alerts/prompts. */
  answerAlerts(...buttons: string[]): void {
    this.queuedAlertResponses.push(...buttons);
  }

  get lastSidebar(): SidebarRecord | undefined {
    return this.sidebars[this.sidebars.length - 1];
  }
}
