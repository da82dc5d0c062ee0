/**
 * What a workload costs at least, from the limits the strict runtime enforces and its own cost
 * model (dev/gas-runtime/cost-model.ts, apps-script-cost-model.md), for the cheapest write path any
 * correct implementation has:
 * - the API's 250 records a page and 60 requests a minute (spec 8.1); 60 ms a fetch;
 * - the cells: the cheaper of (a) Sheets API write requests and (b) SpreadsheetApp setValues.
 *   (a) The runtime refuses a Values.batchUpdate or Spreadsheets.batchUpdate body past 2,000,000
 *   bytes (sheets-payload-limit.ts: Google's recommended 2 MB, read strictly), as the add-on keeps
 *   to, so the cells as they end up (bench/write-payload.ts) go in requests of at most 2 MB in the
 *   smaller form, Values.batchUpdate values (RAW), 330 ms a request + 10 µs a cell (its 0.7 ms a
 *   range left out), at least one an execution. Sheets the write must create are made either by
 *   SpreadsheetApp (insertSheet, a resize where the default 1,000 × 26 grid does not fit, one flush
 *   before the first request: 10 ms each) or by addSheet in a first Spreadsheets.batchUpdate that
 *   carries as many rows as its 2 MB holds in the larger updateCells form, whichever is cheaper;
 *   within Sheets' 60 write requests a minute. (b) setValues, outside that quota, 260 ms a call of
 *   up to 15,000 cells (60 µs a cell above), one call at least per range, no request size;
 * - one batchGet of the key columns where rows must be found (240 ms + 10 µs a cell);
 * - 25 ms a cache read for an answer another cell fetched;
 * - the storage every correct run makes once per execution, named: the OAuth token read from
 *   properties (40 ms), the document lock taken (10 ms), the spreadsheet's id for the Sheets API
 *   (SpreadsheetApp.getActive and getId, 10 ms each) and, for a run that moves a checkpoint, the
 *   checkpoint saved once (70 ms);
 * - the 6-minute execution.
 * Whatever reads or writes more than the data that changed, or stores more, is above it.
 */
import { SHEETS_PAYLOAD_LIMIT } from '../dev/gas-runtime/spreadsheet/sheets-payload-limit';
import type { WritePayload } from './write-payload';

export const PAGE_SIZE = 250;
const API_PER_MINUTE = 60;
const EXECUTION_S = 360;
const FETCH_S = 0.06;
const SPREADSHEETS_BATCH_UPDATE_S = 0.33;
const SET_VALUES_S = 0.26;
const SET_VALUES_FLAT_CELLS = 15_000;
const SET_VALUES_PER_CELL_S = 0.00006;
const BATCH_GET_S = 0.24;
const PER_CELL_S = 0.00001;
const CACHE_GET_S = 0.025;
const OTHER_APP_S = 0.01;
/** SpreadsheetApp.insertSheet's grid. */
const DEFAULT_GRID = { rows: 1000, columns: 26 };

/** Storage and handles any correct run pays once per execution (seconds each), by name. */
export const PER_EXECUTION_S = {
  oauth_token_read: 0.04,
  document_lock: 0.01,
  spreadsheet_id: 0.02,
} as const;
/** A run that moves a checkpoint (a watermark, a pass's end) saves it once per execution. */
export const CHECKPOINT_SAVE_S = 0.07;

export interface BoundInput {
  /** Records that must be fetched, paged at 250 (orders, or every order for a full pass). */
  records: number;
  /** Other requests the workload cannot do without, by name (e.g. products, daily window). */
  fixedRequests: Record<string, number>;
  /** Cells whose value changed and must be written. */
  cells: number;
  /** Separate ranges those cells form (a backfill: one per sheet; scattered updates: one per row). */
  ranges: number;
  /** The cells' bytes in each request form, and the sheets the write must create (required when cells > 0). */
  payload?: WritePayload;
  /** Rows whose place must be looked up (the key column read once), 0 when only appending to an empty sheet. */
  keyRows: number;
  /** Executions that must happen whatever the time (formula cells: one each). */
  minExecutions?: number;
  /** Answers that can at best come from the cache (a formula cell whose argument set another cell fetched): 25 ms each. */
  cacheReads?: number;
  /**
   * Formula cells: no run (no lock, no spreadsheet id, no checkpoint), and only the cells that
   * fetch read the token (`tokenReads`). Default: a sync run, all of it once per execution.
   */
  cellsOnly?: { tokenReads: number };
}

export interface LowerBound {
  api_requests: number;
  api_requests_named: Record<string, number>;
  sheets_write_requests: number;
  cells_written: number;
  modelled_seconds: number;
  /** The modelled seconds by part (before the API minute's floor), each named. */
  modelled_parts_seconds: Record<string, number>;
  /** The write path the bound took: 'Sheets API, 2 MB a request', 'setValues' or 'none'. */
  write_path: string;
  /** The API's 60 a minute alone: ceil(requests / 60) - 1 full minutes. */
  rate_limit_seconds: number;
  executions: number;
  api_429s: 0;
  sheets_writes_per_minute_max: number;
  hourly_api_budget_share_pct: number;
}

/** Sheets API write requests: the sheets made first, then the values in requests of at most 2 MB. */
function apiWriteCost(cells: number, payload: WritePayload, executions: number): { seconds: number; requests: number } {
  const limit = SHEETS_PAYLOAD_LIMIT;
  const valueRequests = Math.max(executions, Math.ceil(payload.valuesBytes / limit));
  let setUpS = 0;
  let requests = valueRequests;
  if (payload.newSheets.length > 0) {
    const resizes = payload.newSheets.reduce(
      (n, s) => n + (s.rows > DEFAULT_GRID.rows ? 1 : 0) + (s.columns > DEFAULT_GRID.columns ? 1 : 0),
      0,
    );
    const appSetUpS = (payload.newSheets.length + resizes + 1) * OTHER_APP_S;
    const addSheets = payload.newSheets.reduce(
      (n, s) =>
        n +
        JSON.stringify({
          addSheet: { properties: { title: s.title, gridProperties: { rowCount: s.rows, columnCount: s.columns } } },
        }).length +
        1,
      0,
    );
    // addSheet rides with updateCells rows; what that first request's room cannot carry goes as values.
    const rest = Math.max(0, payload.valuesBytes - (limit - addSheets) * payload.valuesPerUpdateCellsByteMax);
    const riding = Math.max(
      executions,
      Math.min(Math.ceil((addSheets + payload.updateCellsBytes) / limit), 1 + Math.ceil(rest / limit)),
    );
    if (riding * SPREADSHEETS_BATCH_UPDATE_S < appSetUpS + valueRequests * SPREADSHEETS_BATCH_UPDATE_S)
      requests = riding;
    else setUpS = appSetUpS;
  }
  return { seconds: setUpS + requests * SPREADSHEETS_BATCH_UPDATE_S + cells * PER_CELL_S, requests };
}

/** The cheaper way to write the cells in `executions` executions. */
function writeCost(input: BoundInput, executions: number): { path: string; seconds: number; requests: number } {
  if (input.cells <= 0) return { path: 'none', seconds: 0, requests: 0 };
  if (!input.payload) throw new Error('lowerBound: cells to write need their payload (bench/write-payload.ts)');
  const api = apiWriteCost(input.cells, input.payload, executions);
  // setValues: at least one call per range and per 15,000 cells; a call's cells above that cost more, so this is its least.
  const calls = Math.max(input.ranges, Math.ceil(input.cells / SET_VALUES_FLAT_CELLS));
  const app = calls * SET_VALUES_S + Math.max(0, input.cells - calls * SET_VALUES_FLAT_CELLS) * SET_VALUES_PER_CELL_S;
  return app < api.seconds
    ? { path: 'setValues', seconds: app, requests: 0 }
    : { path: 'Sheets API, 2 MB a request', seconds: api.seconds, requests: api.requests };
}

const round = (x: number): number => Math.round(x * 10) / 10;

export function lowerBound(input: BoundInput): LowerBound {
  const pages = input.records > 0 ? Math.ceil(input.records / PAGE_SIZE) : 0;
  const fixed = Object.values(input.fixedRequests).reduce((a, b) => a + b, 0);
  const requests = pages + fixed;
  const rateLimitS = Math.max(0, Math.ceil(requests / API_PER_MINUTE) - 1) * 60;
  let executions = input.minExecutions ?? 1;
  for (;;) {
    const parts = boundParts(input, requests, executions);
    const serviceS = Object.values(parts.seconds).reduce((a, b) => a + b, 0);
    const seconds = Math.max(serviceS, rateLimitS + FETCH_S);
    const needed = Math.max(input.minExecutions ?? 1, Math.ceil(seconds / EXECUTION_S));
    if (needed > executions) {
      executions = needed;
      continue;
    }
    return {
      api_requests: requests,
      api_requests_named: { orders_pages: pages, ...input.fixedRequests },
      sheets_write_requests: parts.writeRequests,
      cells_written: input.cells,
      modelled_seconds: round(seconds),
      modelled_parts_seconds: Object.fromEntries(
        Object.entries(parts.seconds).map(([k, v]) => [k, Math.round(v * 1000) / 1000]),
      ),
      write_path: parts.path,
      rate_limit_seconds: rateLimitS,
      executions,
      api_429s: 0,
      sheets_writes_per_minute_max: Math.min(parts.writeRequests, 60),
      hourly_api_budget_share_pct: round((requests / 1_000) * 100),
    };
  }
}

function boundParts(
  input: BoundInput,
  requests: number,
  executions: number,
): { seconds: Record<string, number>; path: string; writeRequests: number } {
  const write = writeCost(input, executions);
  const seconds: Record<string, number> = {
    api_fetches: requests * FETCH_S,
    sheets_write: write.seconds,
    key_columns_read: input.keyRows > 0 ? BATCH_GET_S + input.keyRows * PER_CELL_S : 0,
    cache_reads: (input.cacheReads ?? 0) * CACHE_GET_S,
  };
  if (input.cellsOnly) seconds.oauth_token_read = input.cellsOnly.tokenReads * PER_EXECUTION_S.oauth_token_read;
  else {
    for (const [name, s] of Object.entries(PER_EXECUTION_S)) seconds[name] = executions * s;
    seconds.checkpoint_save = executions * CHECKPOINT_SAVE_S;
  }
  return { seconds, path: write.path, writeRequests: write.requests };
}

/** Our figure over the bound's, where both are positive. */
export function ratio(ours: number, bound: number): number | null {
  if (bound <= 0) return ours === 0 ? 1 : null;
  return Math.round((ours / bound) * 100) / 100;
}
