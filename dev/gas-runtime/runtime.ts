import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Execution, type ExecutionResult, type MethodCall } from './bridge/execution.js';
import { WorkerPool } from './bridge/worker-pool.js';
import type { LibraryCode } from './bridge/protocol.js';
import { startCallbackServer, type CallbackServer } from './callback-server.js';
import { RuntimeClock } from './clock.js';
import { ConsentGuard, ConsentLedger } from './consent.js';
import { AddOnEnablement, UNKNOWN_FUNCTION_CODE, unknownFunctionMessage } from './addon-enablement.js';
import { AuthModeNoneGuard } from './auth-mode-none.js';
import { checkAllowlistEntries, substituteBase, type AllowlistBase } from './allowlist.js';
import { DocumentAccess, missingDocumentMessage } from './document-access.js';
import { copyDocument, type LocalDocument } from './document-copies.js';
import { loadLibrary } from './libraries.js';
import { readManifest, type Manifest } from './manifest.js';
import { Blob } from './services/blob.js';
import { CacheEviction } from './services/cache.js';
import { escapeHtml, HtmlOutput } from './services/html-service.js';
import { createServiceRoots, type ServiceWiring } from './services/index.js';
import type { SentMail } from './services/mail.js';
import type { PropertyStores } from './services/properties.js';
import type { TriggerRecord } from './services/triggers.js';
import {
  loadExportModule,
  loadSpreadsheetModule,
  type ExportModule,
  type SpreadsheetModule,
  type WorkbookJson,
  type WorkbookLike,
} from './spreadsheet-adapter.js';
import { QuotaGuard, TRIGGER_QUOTA_MESSAGE, type AccountKind, type QuotaLedger } from './quotas.js';
import { loadState, saveState } from './state.js';
import { createStores, type SharedStores } from './stores.js';
import type { Warehouse } from './bigquery/warehouse.js';
import {
  emptyCounts,
  type AuthMode,
  type CallInterceptor,
  type ExecutionCounts,
  type ExecutionServiceContext,
  type UiLog,
} from './types.js';

export const DEFAULT_TIME_LIMIT_MS = 360_000;
/** How an execution that ScriptApp.requireScopes ended reads (the public wording for missing authorization). */
export const AUTHORIZATION_REQUIRED_MESSAGE = 'Authorization is required to perform that action.';
export const CUSTOM_FUNCTION_TIME_LIMIT_MS = 30_000;
/**
 * "Simultaneous executions: 30 / user, 1,000 / script" (developers.google.com/apps-script/guides/services/quotas,
 * "Current limitations"). Past them the execution does not start; the refusal reads as public reports
 * quote it (stackoverflow.com/questions/14604334 "exec maxSimultaneous", cited in
 * dropseed/google-sheets-us-states#5). "Too many simultaneous invocations: Spreadsheets" is another
 * error: concurrent calls on one document's Spreadsheet service (issuetracker.google.com/issues/373461929).
 */
export const SIMULTANEOUS_EXECUTIONS_PER_USER = 30;
export const SIMULTANEOUS_EXECUTIONS_PER_SCRIPT = 1_000;
export const SIMULTANEOUS_EXECUTIONS_MESSAGE =
  'Service invoked too many times in a short time: exec maxSimultaneous. Try Utilities.sleep(1000) between calls.';
/**
 * Simple triggers "cannot run for longer than 30 seconds" (developers.google.com/apps-script/guides/triggers,
 * "Restrictions"): onOpen, onEdit, onInstall and onSelectionChange, whatever their auth mode. The
 * runtime gives any execution of those names 30 s (the stricter reading: it cannot tell Sheets
 * calling onOpen from a script calling it).
 */
export const SIMPLE_TRIGGER_TIME_LIMIT_MS = 30_000;
const SIMPLE_TRIGGERS = new Set(['onOpen', 'onEdit', 'onInstall', 'onSelectionChange']);

function defaultTimeLimitMs(functionName: string, authMode: AuthMode): number {
  if (authMode === 'CUSTOM_FUNCTION') return CUSTOM_FUNCTION_TIME_LIMIT_MS;
  return SIMPLE_TRIGGERS.has(functionName) ? SIMPLE_TRIGGER_TIME_LIMIT_MS : DEFAULT_TIME_LIMIT_MS;
}

export interface RuntimeOptions {
  distDir: string;
  timeZone?: string;
  startTime?: number;
  user?: { email: string };
  /** Extra URL prefixes UrlFetchApp may reach besides the manifest's urlFetchWhitelist (a test's own servers). */
  urlFetchAllow?: string[];
  /**
   * The deployed API base the manifest's urlFetchWhitelist names, and the local one in its place (the
   * harness: the emulator's): the manifest's list then decides, with Google's matching rules (allowlist.ts).
   */
  urlFetchWhitelistBase?: AllowlistBase;
  libraries?: Record<string, string>;
  costModel?: boolean;
  /**
   * The clock moves only by modelled costs, sleeps and clock.advance(), not with real time: time
   * limits then measure what Apps Script would spend, not how loaded this host is (tests that run
   * hundreds of executions at once). Default false.
   */
  modelledTimeOnly?: boolean;
  onSleep?: (ms: number) => Promise<void>;
  stateDir?: string;
  /** 'workspace' sets Google Workspace quotas (6 h of triggers, 100,000 UrlFetch calls a day). */
  account?: AccountKind;
  /**
   * False: the add-on is installed for the user but not yet enabled in the runtime's spreadsheet
   * (addon-enablement.ts): formula cells show #NAME? and onOpen runs in NONE until a FULL execution
   * runs in it. Default true (the spreadsheet the add-on is being used in).
   */
  addOnEnabled?: boolean;
}

export interface RunOptions {
  authMode?: AuthMode;
  timeLimitMs?: number;
  killAtServiceCall?: number;
  /** As killAtServiceCall, at the nth call of one method ("Sheets.Spreadsheets.batchUpdate"): the call is not made. */
  killAtMethodCall?: MethodCall;
  /**
   * Ends the execution as its time limit does, just after a UrlFetchApp.fetch to a URL with this
   * prefix reached the server: the server acted, the script never reads the answer.
   */
  killAfterFetchTo?: string;
  /** The event object: passed as the function's first argument. */
  event?: unknown;
  /** What the time limit's error says (a trigger past the daily allowance). */
  timeLimitMessage?: string;
  /** The Google user (e-mail) the execution runs as; default the runtime's user. */
  user?: string;
  /**
   * False runs it without a document, as Google runs the OAuth callback: SpreadsheetApp.getActive(),
   * document properties, lock and cache are null. Default true.
   */
  document?: boolean;
  /** The spreadsheet the execution runs in: a copy made with makeCopy (default: the runtime's own). */
  spreadsheetId?: string;
}

/** openDocument's options: who opens which spreadsheet. */
export interface OpenDocumentOptions {
  user?: string;
  spreadsheetId?: string;
}

/** fireTrigger's options: `document: false` fires a clock trigger without its document (Google does not say which it does). */
export interface FireTriggerOptions {
  document?: boolean;
  /** As RunOptions.killAtServiceCall: the trigger's execution ends at that service call. */
  killAtServiceCall?: number;
  /** As RunOptions.killAfterFetchTo. */
  killAfterFetchTo?: string;
}

export interface RuntimeCounts extends ExecutionCounts {
  executions: number;
  timedOut: number;
}

export class LocalRuntime {
  readonly clock: RuntimeClock;
  readonly totals: RuntimeCounts = { ...emptyCounts(), executions: 0, timedOut: 0 };
  private readonly stores: SharedStores;
  /** Executions running now, with the user each runs as. */
  private readonly running = new Map<Execution, string>();
  /** The most executions each user had running at once (measured, for the week's quota figures). */
  private readonly simultaneousPeaks = new Map<string, number>();
  private readonly workers = new WorkerPool();
  private callbackServer: CallbackServer | undefined;
  private executionSeq = 0;
  /** Spreadsheets made with makeCopy, by id (each a copyDocument). */
  private readonly copies = new Map<string, LocalDocument>();
  /** Spreadsheets deleted or no longer shared with a user (DocumentAccess). */
  private readonly access = new DocumentAccess();
  /**
   * The browser's default Google account when several are signed in: set, the /usercallback runs as
   * it, whoever made the state token. Apps Script runs web requests as the browser's default account
   * ("support for multilogin isn't great in Apps Script", googleworkspace/apps-script-oauth2#277; a
   * script run "when you have multiple accounts logged into Drive", alexwforsythe/code-blocks#79).
   * Null (the default): one account, the one that made the token.
   */
  browserDefaultAccount: string | null = null;
  /** What each user granted of the manifest's scopes: `consent.withdraw(user, scope)` / `grant(user)`. */
  readonly consent: ConsentLedger;
  /** The spreadsheets the add-on is enabled in (AddOnEnablement): the runtime's own unless addOnEnabled is false. */
  private readonly enablement = new AddOnEnablement();

  constructor(
    private readonly options: RuntimeOptions,
    private readonly manifest: Manifest,
    private readonly code: string,
    private readonly libraries: LibraryCode[],
    private readonly spreadsheetModule: SpreadsheetModule | undefined,
    private readonly exportModule: ExportModule | undefined,
    private workbookModel: WorkbookLike | undefined,
    clock: RuntimeClock,
    stores: SharedStores,
  ) {
    this.clock = clock;
    this.stores = stores;
    this.consent = new ConsentLedger(manifest.oauthScopes);
    if (options.addOnEnabled !== false && workbookModel) this.enablement.enable(workbookModel.id);
  }

  /**
   * From now on every cache (script, document, each user's) evicts a live entry on read with
   * probability `rate`, from one seeded sequence (CacheEviction): Google's cache is best effort.
   */
  evictCaches(rate: number, seed: number): void {
    const eviction = new CacheEviction(rate, seed);
    const { script, document, user, users } = this.stores.caches;
    for (const store of [script, document, user, ...Object.values(users)]) store.eviction = eviction;
  }

  /** True when the add-on is enabled in the spreadsheet (the runtime's own or a copy): its formulas run there. */
  isAddOnEnabled(spreadsheetId: string = this.workbook.id): boolean {
    return this.enablement.isEnabled(spreadsheetId);
  }

  /**
   * `user` opens the spreadsheet: Sheets runs the add-on's onOpen with `{ authMode }`, NONE where the
   * add-on is not enabled, LIMITED where it is (AddOnEnablement.onOpenAuthMode).
   */
  openDocument(options: OpenDocumentOptions = {}): Promise<ExecutionResult> {
    const id = options.spreadsheetId ?? this.workbook.id;
    this.documentOf(id);
    const authMode = this.enablement.onOpenAuthMode(id);
    return this.run('onOpen', [], {
      authMode,
      event: { authMode },
      ...(options.user ? { user: options.user } : {}),
      spreadsheetId: id,
    });
  }

  get workbook(): WorkbookLike {
    if (!this.workbookModel) throw new Error('The spreadsheet model (dev/gas-runtime/spreadsheet) is not available');
    return this.workbookModel;
  }

  /**
   * Puts `next` (default: a new empty workbook with the same id and time zone) in place of the
   * document and returns the one it replaced; executions started afterwards see it. The bench keeps
   * one workbook per approach it compares, over the same stores and connection.
   */
  replaceWorkbook(next?: WorkbookLike): WorkbookLike {
    const previous = this.workbook;
    this.workbookModel =
      next ??
      new this.spreadsheetModule!.Workbook({
        timeZone: (previous as unknown as { timeZone: string }).timeZone,
        id: previous.id,
      });
    return previous;
  }

  get properties(): PropertyStores {
    return this.stores.properties;
  }

  /** The BigQuery advanced service's datasets, tables and jobs: a test queries them as the service would. */
  get bigquery(): Warehouse {
    return this.stores.bigquery;
  }

  /**
   * File → Make a copy by `user`, carrying the document properties (the stricter reading:
   * copyDocument). Returns the copy's id; run(…, { spreadsheetId }) runs in it.
   */
  makeCopy(user: string): string {
    const copy = copyDocument(this.ownDocument(), this.spreadsheetModule!, user, this.clock);
    this.copies.set(copy.workbook.id, copy);
    return copy.workbook.id;
  }

  /** A copy's workbook and document properties (for tests). */
  copyOf(spreadsheetId: string): LocalDocument {
    const copy = this.copies.get(spreadsheetId);
    if (!copy) throw new Error(`No copy with id ${spreadsheetId}`);
    return copy;
  }

  /**
   * The spreadsheet (the runtime's own or a copy) is deleted: nobody opens it any more, and its
   * triggers stay and fire without it (DocumentAccess).
   */
  deleteDocument(spreadsheetId: string): void {
    this.documentOf(spreadsheetId);
    this.access.delete(spreadsheetId);
  }

  /** The spreadsheet is no longer shared with `user`: as deleted, for them only. */
  revokeAccess(spreadsheetId: string, user: string): void {
    this.documentOf(spreadsheetId);
    this.access.revoke(spreadsheetId, user);
  }

  /** Shared with `user` again. */
  grantAccess(spreadsheetId: string, user: string): void {
    this.access.grant(spreadsheetId, user);
  }

  private documentOf(spreadsheetId: string): LocalDocument {
    return spreadsheetId === this.workbookModel?.id ? this.ownDocument() : this.copyOf(spreadsheetId);
  }

  /**
   * What openById finds for `user`: the execution's own spreadsheet, or another one they own (a
   * copy is shared with nobody: the stricter reading); one gone for them is 'missing'.
   */
  private opener(
    user: string,
    current: WorkbookLike | undefined,
  ): (id: string) => WorkbookLike | 'missing' | undefined {
    return (id) => {
      const document = id === this.workbookModel?.id ? this.ownDocument() : this.copies.get(id);
      if (!document) return undefined;
      if (!this.access.canOpen(id, user)) return 'missing';
      if (document.workbook === current || document.owner === user) return document.workbook;
      return 'missing';
    };
  }

  private ownDocument(): LocalDocument {
    return {
      workbook: this.workbook,
      properties: this.stores.properties.document,
      cache: this.stores.caches.document,
      owner: this.userEmail,
    };
  }

  /** The file each manifest library was loaded from, by userSymbol. */
  get libraryFiles(): Record<string, string> {
    return Object.fromEntries(this.libraries.map((l) => [l.userSymbol, l.filename]));
  }

  /** Per-user quota use (Sheets API per minute, UrlFetch per day, trigger runtime per day). */
  get quotas(): QuotaLedger {
    return this.stores.quotas;
  }

  /** Messages sent with MailApp, oldest first. */
  get mail(): SentMail[] {
    return this.stores.mail.sent;
  }

  get triggers(): TriggerRecord[] {
    return this.stores.triggers;
  }

  get ui(): UiLog {
    return this.stores.ui;
  }

  private get timeZone(): string {
    return this.options.timeZone ?? this.manifest.timeZone;
  }

  private get scriptId(): string {
    return `1${createHash('sha256').update(path.resolve(this.options.distDir)).digest('base64url')}`;
  }

  private wiring(userEmail: string = this.userEmail, copy?: LocalDocument): ServiceWiring {
    const workbook = copy ? copy.workbook : this.workbookModel;
    const stores = copy
      ? {
          ...this.stores,
          properties: { ...this.stores.properties, document: copy.properties },
          caches: { ...this.stores.caches, document: copy.cache },
        }
      : this.stores;
    return {
      distDir: this.options.distDir,
      manifest: this.manifest,
      stores,
      clock: this.clock,
      userEmail,
      defaultUserEmail: this.userEmail,
      documentOwnerEmail: copy ? copy.owner : this.userEmail,
      documentId: workbook?.id ?? `local-${this.scriptId.slice(1, 23)}`,
      scriptId: this.scriptId,
      urlFetchAllow: this.options.urlFetchAllow ?? [],
      urlFetchWhitelist:
        this.manifest.urlFetchWhitelist &&
        substituteBase(this.manifest.urlFetchWhitelist, this.options.urlFetchWhitelistBase),
      spreadsheet:
        this.spreadsheetModule && workbook
          ? { module: this.spreadsheetModule, workbook, open: this.opener(userEmail, workbook) }
          : undefined,
      serviceUrl: () => (this.callbackServer ? this.callbackServer.url.replace(/\/usercallback$/, '/exec') : null),
      consent: {
        enforced: this.consent.enforced,
        granted: () => this.consent.granted(userEmail),
        authorizationUrl: (scopes) => this.authorizationUrl(userEmail, scopes),
        requireAuthorization: () => {
          throw new Error('ScriptApp.requireScopes needs a running execution');
        },
      },
      sleep: async (ms) => {
        this.clock.advance(ms);
        if (this.options.onSleep) await this.options.onSleep(ms);
      },
    };
  }

  /** The wiring of one execution: Utilities.sleep spends that execution's time. */
  private executionWiring(
    execution: () => Execution,
    userEmail: string,
    ctx: ExecutionServiceContext,
    copy?: LocalDocument,
  ): ServiceWiring {
    const { counts, executionId } = ctx;
    const wiring = this.wiring(userEmail, copy);
    return {
      ...wiring,
      sleep: (ms) => {
        counts.sleptMs += ms;
        return execution().spend(ms);
      },
      consent: {
        ...wiring.consent,
        requireAuthorization: (scopes) => {
          this.stores.ui.authorizationPrompts.push({ user: userEmail, scopes, executionId });
          execution().abort(AUTHORIZATION_REQUIRED_MESSAGE);
          throw new Error(AUTHORIZATION_REQUIRED_MESSAGE);
        },
      },
    };
  }

  async run(functionName: string, args: unknown[] = [], options: RunOptions = {}): Promise<ExecutionResult> {
    const authMode = options.authMode ?? 'FULL';
    const userEmail = options.user ?? this.userEmail;
    const copy =
      options.spreadsheetId === undefined || options.spreadsheetId === this.workbookModel?.id
        ? undefined
        : this.copyOf(options.spreadsheetId);
    const documentId = copy?.workbook.id ?? this.workbookModel?.id;
    // Nobody opens a spreadsheet gone for them, so nothing runs in it (a trigger runs without it: fireTrigger).
    if (options.document !== false && documentId !== undefined && !this.access.canOpen(documentId, userEmail)) {
      throw new Error(`${functionName} cannot run in it as ${userEmail}: ${missingDocumentMessage(documentId)}`);
    }
    if (authMode === 'CUSTOM_FUNCTION' && documentId !== undefined && !this.enablement.isEnabled(documentId))
      return this.refusal(UNKNOWN_FUNCTION_CODE, unknownFunctionMessage(functionName), 0);
    const refused = this.refuseOverSimultaneous(userEmail);
    if (refused) return refused;
    if (documentId !== undefined && AddOnEnablement.enables(authMode, options.document !== false))
      this.enablement.enable(documentId);
    const ctx: ExecutionServiceContext = {
      authMode,
      timeZone: this.timeZone,
      executionId: `exec-${++this.executionSeq}`,
      counts: emptyCounts(),
      userEmail,
      document: options.document !== false,
    };
    // The wiring's sleep is called only once the execution runs, after this assignment.
    const execution: Execution = new Execution(
      {
        clock: this.clock,
        locks: this.stores.locks,
        costModel: this.options.costModel !== false,
        onSleep: this.options.onSleep,
        reviveBlob: (b) => new Blob(Buffer.from(b.bytes.map((x) => x & 0xff)), b.contentType, b.name),
        echoLogs: process.env.GAS_RUNTIME_LOGS === '1',
        workers: this.workers,
      },
      {
        ctx,
        functionName,
        args: options.event === undefined ? args : [options.event, ...args],
        timeLimitMs: options.timeLimitMs ?? defaultTimeLimitMs(functionName, authMode),
        killAtServiceCall: options.killAtServiceCall,
        killAtMethodCall: options.killAtMethodCall,
        killAfterFetchTo: options.killAfterFetchTo,
        roots: createServiceRoots(
          this.executionWiring(() => execution, userEmail, ctx, copy),
          ctx,
        ),
        interceptors: this.interceptors(ctx, copy?.workbook ?? this.workbookModel),
        timeLimitMessage: options.timeLimitMessage,
        libraries: this.libraries,
        code: this.code,
        codeFilename: path.join(this.options.distDir, 'Code.js'),
      },
    );
    this.running.set(execution, userEmail);
    try {
      const result = await execution.run();
      this.addToTotals(result);
      return result;
    } finally {
      this.running.delete(execution);
    }
  }

  /**
   * Where `user` grants `scopes`: the callback server's /authorize page, its sealed token naming
   * them (Google's is an accounts.google.com URL; locally the page grants them at once).
   */
  private authorizationUrl(user: string, scopes: string[]): string {
    const token = this.stores.stateTokens.seal({
      method: '',
      args: { scopes: scopes.join(' ') },
      user,
      expiresAt: this.clock.now() + 3_600_000,
    });
    const origin = this.callbackServer ? new URL(this.callbackServer.url).origin : 'http://127.0.0.1';
    return `${origin}/authorize?consent=${token}`;
  }

  /** The most executions `user` had running at the same time so far. */
  simultaneousPeak(user: string): number {
    return this.simultaneousPeaks.get(user) ?? 0;
  }

  /** Past 30 running executions of the user (1,000 of the script) the next one does not start. */
  private refuseOverSimultaneous(user: string): ExecutionResult | null {
    let own = 0;
    for (const runner of this.running.values()) if (runner === user) own += 1;
    if (own < SIMULTANEOUS_EXECUTIONS_PER_USER && this.running.size < SIMULTANEOUS_EXECUTIONS_PER_SCRIPT) {
      this.simultaneousPeaks.set(user, Math.max(own + 1, this.simultaneousPeaks.get(user) ?? 0));
      return null;
    }
    this.totals.quotaRefusals += 1;
    return this.refusal('Exception', SIMULTANEOUS_EXECUTIONS_MESSAGE, 1);
  }

  /** The result of an execution that never started. */
  private refusal(name: string, message: string, quotaRefusals: number): ExecutionResult {
    const now = this.clock.now();
    const counts = emptyCounts();
    counts.quotaRefusals = quotaRefusals;
    return {
      ok: false,
      timedOut: false,
      error: { name, message },
      startedAt: now,
      endedAt: now,
      elapsedMs: 0,
      counts,
      logs: [],
    };
  }

  /** AuthMode.NONE's refusals, consent (an ungranted scope is refused before anything counts), quotas, then the SpreadsheetApp write buffer. */
  private interceptors(ctx: ExecutionServiceContext, workbook: WorkbookLike | undefined): CallInterceptor[] {
    const list: CallInterceptor[] = [
      new AuthModeNoneGuard(ctx),
      new ConsentGuard(this.consent, ctx.userEmail ?? this.userEmail, ctx),
      new QuotaGuard(this.stores.quotas, ctx.userEmail ?? this.userEmail, ctx, this.projectNumber),
    ];
    if (this.spreadsheetModule && workbook) list.push(this.spreadsheetModule.writeBufferOf(workbook));
    return list;
  }

  private get userEmail(): string {
    return this.options.user?.email ?? 'user@example.com';
  }

  /** A stable made-up Cloud project number for the script (Google's quota errors name one). */
  private get projectNumber(): string {
    return String(parseInt(createHash('sha256').update(this.scriptId).digest('hex').slice(0, 10), 16)).slice(0, 12);
  }

  private addToTotals(result: ExecutionResult): void {
    const t = this.totals;
    const c = result.counts;
    t.executions += 1;
    if (result.timedOut) t.timedOut += 1;
    t.serviceCalls += c.serviceCalls;
    t.sheetsCalls += c.sheetsCalls;
    t.cellsRead += c.cellsRead;
    t.cellsWritten += c.cellsWritten;
    t.urlFetches += c.urlFetches;
    t.modelledMs += c.modelledMs;
    t.sheetsApiReads += c.sheetsApiReads;
    t.sheetsApiWrites += c.sheetsApiWrites;
    t.quotaRefusals += c.quotaRefusals;
    t.propertyCalls += c.propertyCalls;
    t.sleptMs += c.sleptMs;
    if (c.workerCpuMs !== null) t.workerCpuMs = (t.workerCpuMs ?? 0) + c.workerCpuMs;
    t.peakHeapBytes = Math.max(t.peakHeapBytes, c.peakHeapBytes);
    for (const [k, ms] of Object.entries(c.modelledMsByService))
      t.modelledMsByService[k] = (t.modelledMsByService[k] ?? 0) + ms;
    t.requests.push(...c.requests);
    for (const [k, n] of Object.entries(c.byMethod)) t.byMethod[k] = (t.byMethod[k] ?? 0) + n;
    for (const [k, n] of Object.entries(c.sheetsByMethod)) t.sheetsByMethod[k] = (t.sheetsByMethod[k] ?? 0) + n;
  }

  /**
   * Runs a clock trigger's handler with a time-driven event object, as Apps Script does, as the
   * user who created it ("installable triggers always run under the account of the person who
   * created them"); `document: false` runs it without its document.
   */
  fireTrigger(triggerUid: string, options: FireTriggerOptions = {}): Promise<ExecutionResult> {
    const trigger = this.stores.triggers.find((t) => t.uid === triggerUid);
    if (!trigger) return Promise.reject(new Error(`No trigger with id ${triggerUid}`));
    const now = new Date(this.clock.now());
    const jan1 = Date.UTC(now.getUTCFullYear(), 0, 1);
    const event = {
      authMode: 'FULL',
      triggerUid,
      year: now.getUTCFullYear(),
      month: now.getUTCMonth() + 1,
      'day-of-month': now.getUTCDate(),
      'day-of-week': now.getUTCDay() === 0 ? 7 : now.getUTCDay(),
      'week-of-year': Math.floor((now.getTime() - jan1) / (7 * 86_400_000)) + 1,
      hour: now.getUTCHours(),
      minute: now.getUTCMinutes(),
      second: now.getUTCSeconds(),
      timezone: 'UTC',
    };
    const user = trigger.userEmail;
    // Its spreadsheet deleted or unshared, Google keeps the trigger and it fires without the document.
    const documentGone = !this.access.canOpen(trigger.documentId, user);
    const run = (): Promise<ExecutionResult> =>
      this.run(trigger.handlerFunction, [], {
        authMode: 'FULL',
        event,
        user,
        document: options.document !== false && !documentGone,
        killAtServiceCall: options.killAtServiceCall,
        killAfterFetchTo: options.killAfterFetchTo,
        ...this.triggerLimit(user),
        // A trigger runs in the document it was created for (a copy's own trigger in the copy).
        ...(this.copies.has(trigger.documentId) ? { spreadsheetId: trigger.documentId } : {}),
      });
    return this.runTrigger(user, run);
  }

  /** A trigger's time limit: the execution limit, or what is left of the user's daily trigger runtime. */
  private triggerLimit(user: string): Pick<RunOptions, 'timeLimitMs' | 'timeLimitMessage'> {
    const remaining = this.stores.quotas.triggerRemainingMs(user);
    return remaining < DEFAULT_TIME_LIMIT_MS ? { timeLimitMs: remaining, timeLimitMessage: TRIGGER_QUOTA_MESSAGE } : {};
  }

  /** Past the daily trigger runtime the trigger does not run; a run that does is counted against it. */
  private async runTrigger(user: string, run: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    if (this.stores.quotas.triggerRemainingMs(user) <= 0) {
      const now = this.clock.now();
      const counts = emptyCounts();
      counts.quota = this.stores.quotas.use(user);
      return {
        ok: false,
        timedOut: false,
        error: { name: 'Exception', message: TRIGGER_QUOTA_MESSAGE },
        startedAt: now,
        endedAt: now,
        elapsedMs: 0,
        counts,
        logs: [],
      };
    }
    const result = await run();
    this.stores.quotas.recordTriggerRun(user, result.elapsedMs);
    result.counts.quota = this.stores.quotas.use(user);
    return result;
  }

  async startCallbackServer(): Promise<string> {
    // The callback runs for the add-on, not for a spreadsheet: no document (apps-script-facts.md).
    this.callbackServer ??= await startCallbackServer(
      this.stores.stateTokens,
      async (method, request, user) => {
        const result = await this.run(method, [request], {
          authMode: 'FULL',
          document: false,
          user: this.browserDefaultAccount ?? user,
        });
        if (!result.ok)
          return {
            status: 500,
            html: `<!doctype html><title>Error</title><p>${escapeHtml(result.error?.message ?? 'Error')}</p>`,
          };
        const value = result.value;
        const html =
          value instanceof HtmlOutput ? value.getContent() : value === undefined || value === null ? '' : String(value);
        return { status: 200, html };
      },
      (user, scopes) => this.consent.grant(user ?? this.userEmail, scopes),
    );
    return this.callbackServer.url;
  }

  private stats(): Record<string, unknown> {
    const { requests, byMethod, sheetsByMethod, ...figures } = this.totals;
    return {
      ...figures,
      requests: requests.length,
      methods: Object.keys(byMethod).length,
      sheetsMethods: Object.keys(sheetsByMethod).length,
    };
  }

  exportJson(): WorkbookJson {
    if (!this.exportModule)
      throw new Error('The spreadsheet export (dev/gas-runtime/spreadsheet/export.ts) is not available');
    return this.exportModule.exportWorkbookJson(this.workbook, this.stats());
  }

  async exportXlsx(file: string): Promise<void> {
    if (!this.exportModule)
      throw new Error('The spreadsheet export (dev/gas-runtime/spreadsheet/export.ts) is not available');
    await this.exportModule.exportWorkbookXlsx(this.workbook, file);
  }

  saveState(dir: string): Promise<void> {
    return saveState(dir, this.stores, this.clock, this.workbookModel?.toJSON());
  }

  /** Worker threads started so far: executions reuse finished ones (the WorkerPool). */
  get workerThreadsStarted(): number {
    return this.workers.started;
  }

  async close(): Promise<void> {
    for (const execution of this.running.keys()) execution.abort('The runtime was closed');
    await this.workers.close();
    await this.callbackServer?.close();
    this.callbackServer = undefined;
    await this.stores.bigquery.close();
  }
}

async function optionalModule<T>(load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      code === 'ERR_MODULE_NOT_FOUND' ||
      code === 'MODULE_NOT_FOUND' ||
      /Cannot find module|Failed to load url|does not exist/i.test(String(error))
    )
      return undefined;
    throw error;
  }
}

export async function createLocalRuntime(options: RuntimeOptions): Promise<LocalRuntime> {
  const manifest = await readManifest(options.distDir);
  // Google refuses to deploy a manifest whose allowlist breaks its rules: so does the runtime.
  if (manifest.urlFetchWhitelist) checkAllowlistEntries(manifest.urlFetchWhitelist);
  const codeFile = path.join(options.distDir, 'Code.js');
  const code = await readFile(codeFile, 'utf8').catch((error: Error) => {
    throw new Error(`Cannot read ${codeFile}: ${error.message}`);
  });
  const libraries = await Promise.all(manifest.libraries.map((l) => loadLibrary(l.userSymbol, options.libraries)));
  const clock = new RuntimeClock(options.startTime, options.modelledTimeOnly !== true);
  const stores = createStores(clock, options.account);
  const spreadsheetModule = await optionalModule(loadSpreadsheetModule);
  const exportModule = await optionalModule(loadExportModule);
  const timeZone = options.timeZone ?? manifest.timeZone;
  const saved = options.stateDir
    ? await loadState(options.stateDir, stores, clock, options.startTime !== undefined)
    : undefined;
  let workbook: WorkbookLike | undefined;
  if (spreadsheetModule) {
    const id = `1${createHash('sha256')
      .update(`workbook:${path.resolve(options.distDir)}`)
      .digest('base64url')
      .slice(0, 43)}`;
    workbook = saved?.workbook
      ? spreadsheetModule.Workbook.fromJSON(saved.workbook)
      : new spreadsheetModule.Workbook({ timeZone, id });
  }
  return new LocalRuntime(options, manifest, code, libraries, spreadsheetModule, exportModule, workbook, clock, stores);
}
