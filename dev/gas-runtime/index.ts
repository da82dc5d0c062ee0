/** The local Apps Script runtime: the public API used by tests, the demo, the playground and bench. */
import type { ExecutionResult } from './bridge/execution.js';
import type { QuotaLedger } from './quotas.js';
import type { PropertyStore } from './services/properties.js';
import type { TriggerRecord } from './services/triggers.js';
import type { SentMail } from './services/mail.js';
import {
  createLocalRuntime,
  type FireTriggerOptions,
  type OpenDocumentOptions,
  type RunOptions,
  type RuntimeCounts,
  type RuntimeOptions,
} from './runtime.js';
import type { WorkbookJson } from './spreadsheet-adapter.js';
import type { Workbook } from './spreadsheet/workbook.js';
import type { UiLog } from './types.js';
import type { Warehouse } from './bigquery/warehouse.js';

export type { ExecutionResult } from './bridge/execution.js';
export { TIME_LIMIT_MESSAGE } from './bridge/execution.js';
export type { FireTriggerOptions, OpenDocumentOptions, RunOptions, RuntimeCounts, RuntimeOptions } from './runtime.js';
export { UNKNOWN_FUNCTION_CODE, unknownFunctionMessage } from './addon-enablement.js';
export { CUSTOM_FUNCTION_TIME_LIMIT_MS, DEFAULT_TIME_LIMIT_MS } from './runtime.js';
export type { PropertyStore } from './services/properties.js';
export type { TriggerRecord } from './services/triggers.js';
export type { SentMail } from './services/mail.js';
export type { WorkbookJson } from './spreadsheet-adapter.js';
export type { AuthMode, ExecutionCounts, ExecutionServiceContext, FetchRecord } from './types.js';
export { UiLog } from './types.js';
export type { QuotaUse } from './types.js';
export {
  QuotaLedger,
  PROPERTIES_QUOTA_MESSAGE,
  TRIGGER_QUOTA_MESSAGE,
  URL_FETCH_QUOTA_MESSAGE,
  SHEETS_REQUESTS_PER_MINUTE_PER_USER,
} from './quotas.js';
export type { AccountKind } from './quotas.js';

import type { ConsentLedger } from './consent.js';
export { ConsentLedger } from './consent.js';
export {
  SIMULTANEOUS_EXECUTIONS_MESSAGE,
  SIMULTANEOUS_EXECUTIONS_PER_USER,
  AUTHORIZATION_REQUIRED_MESSAGE,
} from './runtime.js';

export interface GasRuntime {
  run(functionName: string, args?: unknown[], options?: RunOptions): Promise<ExecutionResult>;
  /** Runs the trigger's handler with a time-driven event object, as its creator; `{ document: false }` without its document. */
  fireTrigger(triggerUid: string, options?: FireTriggerOptions): Promise<ExecutionResult>;
  readonly clock: { now(): number; advance(ms: number): void };
  readonly workbook: Workbook;
  /** The BigQuery advanced service's datasets, tables and jobs (a test queries them through bigquery/jobs.ts's query). */
  readonly bigquery: Warehouse;
  /** Puts `next` (default: an empty workbook with the same id and time zone) in place of the document; returns the one replaced. */
  replaceWorkbook(next?: Workbook): Workbook;
  /**
   * File → Make a copy by `user`: a new id, the same sheets and document properties (the stricter
   * reading, as copyDocument models it); run(…, { spreadsheetId }) runs in the copy. Returns its id.
   */
  makeCopy(user: string): string;
  /**
   * The spreadsheet (own or a copy) is deleted: openById throws Google's "Document … is missing",
   * nothing runs in it, and its triggers stay and fire without their document (DocumentAccess).
   */
  deleteDocument(spreadsheetId: string): void;
  /** The spreadsheet is no longer shared with `user`: as deleted, for that user only. */
  revokeAccess(spreadsheetId: string, user: string): void;
  /** Shared with `user` again after revokeAccess. */
  grantAccess(spreadsheetId: string, user: string): void;
  /**
   * True when the add-on is enabled in the spreadsheet (default the runtime's own): a FULL execution
   * ran in it. Elsewhere a CUSTOM_FUNCTION run does not start: `#NAME?`, "Unknown function: 'NAME'."
   */
  isAddOnEnabled(spreadsheetId?: string): boolean;
  /** `user` opens the spreadsheet: onOpen runs in NONE where the add-on is not enabled, LIMITED where it is. */
  openDocument(options?: OpenDocumentOptions): Promise<ExecutionResult>;
  /** A copy's workbook and document properties. */
  copyOf(spreadsheetId: string): { workbook: Workbook; properties: PropertyStore };
  /** `user` is the default user's store; `users` every other user's, by e-mail. */
  readonly properties: {
    script: PropertyStore;
    document: PropertyStore;
    user: PropertyStore;
    users: Record<string, PropertyStore>;
  };
  /** The file each manifest library was loaded from, by userSymbol (env, options, or the stand-in). */
  readonly libraryFiles: Record<string, string>;
  readonly triggers: TriggerRecord[];
  /** Per-user quota use on the runtime clock (the QuotaLedger). */
  readonly quotas: QuotaLedger;
  /** Messages sent with MailApp (its Outbox), oldest first. */
  readonly mail: SentMail[];
  readonly ui: UiLog;
  /** Granular consent: what each user granted of the manifest's scopes (`withdraw(user, scope)`, `grant(user)`). */
  readonly consent: ConsentLedger;
  /** The most executions a user had running at the same time so far (the limit is 30: simultaneous-executions). */
  simultaneousPeak(user: string): number;
  /** From now on each cache read may find a live entry evicted, at `rate`, from a seeded sequence (CacheService is best effort). */
  evictCaches(rate: number, seed: number): void;
  readonly totals: RuntimeCounts;
  /** Worker threads started so far: an execution reuses a finished one, with fresh contexts (the WorkerPool). */
  readonly workerThreadsStarted: number;
  /** Several accounts signed in: the /usercallback runs as this one, whoever made the state token (null: one account). */
  browserDefaultAccount: string | null;
  /** Starts the loopback /usercallback endpoint; returns e.g. "http://127.0.0.1:PORT/usercallback". */
  startCallbackServer(): Promise<string>;
  exportJson(): WorkbookJson;
  exportXlsx(path: string): Promise<void>;
  saveState(dir: string): Promise<void>;
  close(): Promise<void>;
}

export async function createRuntime(options: RuntimeOptions): Promise<GasRuntime> {
  return (await createLocalRuntime(options)) as unknown as GasRuntime;
}
