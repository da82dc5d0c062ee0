/**
 * What a workload costs at least, from the limits alone: the API's 250 records a page and 60
 * requests a minute (spec 8.1), Sheets' 60 write requests a minute per user, the 6-minute
 * execution, and the cheapest calls of apps-script-cost-model.md (one Values.batchUpdate per
 * execution: 330 ms + 0.7 ms a range + 10 µs a cell; one batchGet of the key column when rows
 * must be found: 240 ms + 10 µs a cell; 60 ms a fetch; 25 ms a cache read). Whatever reads or writes more than the
 * data that changed is above it.
 */
export const PAGE_SIZE = 250;
const API_PER_MINUTE = 60;
const EXECUTION_S = 360;
const FETCH_S = 0.06;
const BATCH_UPDATE_S = 0.33;
const PER_RANGE_S = 0.0007;
const BATCH_GET_S = 0.24;
const PER_CELL_S = 0.00001;
const CACHE_GET_S = 0.025;

export interface BoundInput {
  /** Records that must be fetched, paged at 250 (orders, or every order for a full pass). */
  records: number;
  /** Other requests the workload cannot do without, by name (e.g. products, daily window). */
  fixedRequests: Record<string, number>;
  /** Cells whose value changed and must be written. */
  cells: number;
  /** Separate ranges those cells form (a backfill: one per sheet; scattered updates: one per row). */
  ranges: number;
  /** Rows whose place must be looked up (the key column read once), 0 when only appending to an empty sheet. */
  keyRows: number;
  /** Executions that must happen whatever the time (formula cells: one each). */
  minExecutions?: number;
  /** Answers that can at best come from the cache (a formula cell whose argument set another cell fetched): 25 ms each. */
  cacheReads?: number;
}

export interface LowerBound {
  api_requests: number;
  api_requests_named: Record<string, number>;
  sheets_write_requests: number;
  cells_written: number;
  modelled_seconds: number;
  /** The API's 60 a minute alone: ceil(requests / 60) - 1 full minutes. */
  rate_limit_seconds: number;
  executions: number;
  api_429s: 0;
  sheets_writes_per_minute_max: number;
  hourly_api_budget_share_pct: number;
}

const round = (x: number): number => Math.round(x * 10) / 10;

export function lowerBound(input: BoundInput): LowerBound {
  const pages = input.records > 0 ? Math.ceil(input.records / PAGE_SIZE) : 0;
  const fixed = Object.values(input.fixedRequests).reduce((a, b) => a + b, 0);
  const requests = pages + fixed;
  const rateLimitS = Math.max(0, Math.ceil(requests / API_PER_MINUTE) - 1) * 60;
  const readS = input.keyRows > 0 ? BATCH_GET_S + input.keyRows * PER_CELL_S : 0;
  const writeS = input.cells > 0 ? BATCH_UPDATE_S + input.ranges * PER_RANGE_S + input.cells * PER_CELL_S : 0;
  const serviceS = requests * FETCH_S + readS + writeS + (input.cacheReads ?? 0) * CACHE_GET_S;
  const seconds = Math.max(serviceS, rateLimitS + FETCH_S);
  const executions = Math.max(input.minExecutions ?? 1, Math.ceil(seconds / EXECUTION_S));
  const writes = input.cells > 0 ? Math.max(1, Math.min(executions, Math.ceil(seconds / EXECUTION_S))) : 0;
  return {
    api_requests: requests,
    api_requests_named: { orders_pages: pages, ...input.fixedRequests },
    sheets_write_requests: writes,
    cells_written: input.cells,
    modelled_seconds: round(seconds),
    rate_limit_seconds: rateLimitS,
    executions,
    api_429s: 0,
    sheets_writes_per_minute_max: Math.min(writes, 60),
    hourly_api_budget_share_pct: round((requests / 1_000) * 100),
  };
}

/** Our figure over the bound's, where both are positive. */
export function ratio(ours: number, bound: number): number | null {
  if (bound <= 0) return ours === 0 ? 1 : null;
  return Math.round((ours / bound) * 100) / 100;
}
