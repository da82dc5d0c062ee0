/**
 * What the finance sheets work with during one sync execution: the part of a sync job's context
 * they read. The sync passes its own context, which has all of this and more, so finance never
 * imports the sync that calls it.
 */
import type { ApiClient } from '../api';
import type { ExecutionBudget } from '../platform/budget';
import type { ManagedWorkbook } from '../sheets/managed-workbook';
import type { SyncStateStore } from '../state/sync-state';

export interface FinanceContext {
  api: ApiClient;
  workbook: ManagedWorkbook;
  state: SyncStateStore;
  budget: ExecutionBudget;
  now(): number;
  storeTimeZone: string;
}
