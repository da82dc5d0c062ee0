import { Warehouse } from './bigquery/warehouse.js';
import type { RuntimeClock } from './clock.js';
import { CacheStore, type CacheStores } from './services/cache.js';
import { QuotaLedger, type AccountKind } from './quotas.js';
import { LockManager } from './services/lock.js';
import { Outbox } from './services/mail.js';
import { PropertyStore, type PropertyStores } from './services/properties.js';
import { StateTokenCodec } from './services/state-token.js';
import type { TriggerRecord } from './services/triggers.js';
import { UiLog } from './types.js';

/** Everything that outlives an execution and is shared by executions running at the same time. */
export interface SharedStores {
  properties: PropertyStores;
  caches: CacheStores;
  locks: LockManager;
  triggers: TriggerRecord[];
  ui: UiLog;
  stateTokens: StateTokenCodec;
  /** Per-user Sheets API, UrlFetch and trigger-runtime use (the QuotaLedger). */
  quotas: QuotaLedger;
  /** Every MailApp message sent (nothing leaves the machine). */
  mail: Outbox;
  /** The BigQuery advanced service's datasets, tables and jobs (rows in DuckDB). */
  bigquery: Warehouse;
}

export function createStores(clock: RuntimeClock, account: AccountKind = 'consumer'): SharedStores {
  return {
    properties: { script: new PropertyStore(), document: new PropertyStore(), user: new PropertyStore(), users: {} },
    caches: { script: new CacheStore(clock), document: new CacheStore(clock), user: new CacheStore(clock), users: {} },
    locks: new LockManager(clock),
    triggers: [],
    ui: new UiLog(),
    stateTokens: new StateTokenCodec(clock),
    quotas: new QuotaLedger(clock, account),
    mail: new Outbox(clock, account),
    bigquery: new Warehouse(),
  };
}
