/**
 * A workload's figures from the executions it took: counts are exact (the runtime's counters),
 * time is the runtime's modelled clock (cost-model.ts = apps-script-cost-model.md) plus the
 * JavaScript CPU time measured on this machine. No wall time.
 */
import type { ExecutionResult } from '../dev/gas-runtime/index';

/** The API's hourly allowance per store (spec 8.1): the share of it a workload used. */
export const HOURLY_API_BUDGET = 1_000;

export interface TimeSplit {
  /** UrlFetchApp: 60 ms per fetch (Poehnelt 2024); the API's own server time is not modelled. */
  api: number;
  /** SpreadsheetApp + Advanced Sheets: the cost model's per-call and per-cell constants. */
  sheets: number;
  /** Utilities.sleep: Retry-After waits, Sheets pacing, backoff. */
  waiting: number;
  /** CPU time of the executions' worker threads, measured here (worker/usage.ts). */
  javascript: number;
  /** Properties, cache and lock calls (Poehnelt 2024 "Storage Wars"; locks 10 ms, assumed). */
  storage: number;
}

export interface SheetsCallKinds {
  api_write: number;
  api_read: number;
  spreadsheetapp_write: number;
  spreadsheetapp_read: number;
  spreadsheetapp_flush: number;
  spreadsheetapp_other: number;
}

export interface Figures {
  executions: number;
  api_requests: number;
  api_requests_by_endpoint: Record<string, number>;
  token_requests: number;
  api_429s: number;
  bytes_received: number;
  sheets_calls: number;
  sheets_calls_by_kind: SheetsCallKinds;
  sheets_write_requests: number;
  sheets_writes_per_minute_max: number;
  /** Sheets API requests Google's per-minute quota refused (each a 429 the add-on absorbed or reported). */
  sheets_quota_refusals: number;
  cells_written: number;
  /** Cells read back (key columns, snapshots): explains Sheets time that writes do not. */
  cells_read: number;
  modelled_seconds: number;
  time_split_seconds: TimeSplit;
  /** The runtime clock over the executions (modelled costs and waits, no JavaScript): a cross-check. */
  clock_seconds: number;
  /** Over the executions whose CPU time is known (see cpu_unknown_executions). */
  js_cpu_ms_per_1000_orders: number | null;
  /** Executions ended where they stood (time limit): their CPU time is not in the JavaScript part. */
  cpu_unknown_executions: number;
  peak_heap_mb: number;
  hourly_api_budget_share_pct: number;
  /** Executions ended by the time limit. */
  timed_out: number;
}

const SHEETS_API_READS = new Set(['get', 'batchGet', 'batchGetByDataFilter', 'getByDataFilter']);
const APP_READS =
  /^(getValues|getDisplayValues|getFormulas|getFormulasR1C1|getNotes|getRichTextValues|getValue|getDisplayValue|getFormula|getNote)$/;
const APP_WRITES =
  /^(set|insert|delete|append|clear|add|remove|protect|update|hide|show|autoResize|freeze|copy|move|sort|merge|create)/;

export function sheetsKind(qualified: string): keyof SheetsCallKinds {
  const method = qualified.slice(qualified.lastIndexOf('.') + 1);
  if (qualified.startsWith('Sheets.')) return SHEETS_API_READS.has(method) ? 'api_read' : 'api_write';
  if (qualified === 'SpreadsheetApp.flush') return 'spreadsheetapp_flush';
  if (APP_READS.test(method)) return 'spreadsheetapp_read';
  // Builders and getters of other objects navigate; only calls that change the document write.
  if (APP_WRITES.test(method) && !/Builder\./.test(qualified)) return 'spreadsheetapp_write';
  return 'spreadsheetapp_other';
}

/** "/api/v1/orders?x" → "/api/v1/orders"; ids in paths become ":id". */
function endpointOf(url: string): string {
  const pathname = new URL(url).pathname;
  return pathname.replace(/\/(ord|prd|var|sto|li)_[A-Za-z0-9]+/g, '/:id');
}

const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

export interface FigureInput {
  results: ExecutionResult[];
  /** The most Sheets API writes any 60 s of the workload held (quota ledger). */
  sheetsWritesPerMinuteMax: number;
  /** Orders the workload concerns, for the per-1,000 CPU figure (the store's orders). */
  orders: number;
}

export function figuresOf(input: FigureInput): Figures {
  const byEndpoint: Record<string, number> = {};
  const kinds: SheetsCallKinds = {
    api_write: 0,
    api_read: 0,
    spreadsheetapp_write: 0,
    spreadsheetapp_read: 0,
    spreadsheetapp_flush: 0,
    spreadsheetapp_other: 0,
  };
  const split: TimeSplit = { api: 0, sheets: 0, waiting: 0, javascript: 0, storage: 0 };
  let apiRequests = 0;
  let tokenRequests = 0;
  let tooMany = 0;
  let bytes = 0;
  let sheetsCalls = 0;
  let cells = 0;
  let cellsRead = 0;
  let refusals = 0;
  let clockMs = 0;
  let cpuMs = 0;
  let cpuUnknown = 0;
  let peakHeap = 0;
  let timedOut = 0;
  for (const r of input.results) {
    const c = r.counts;
    for (const q of c.requests) {
      bytes += q.bytes;
      const endpoint = endpointOf(q.url);
      if (endpoint.startsWith('/api/v1/')) {
        apiRequests++;
        byEndpoint[endpoint] = (byEndpoint[endpoint] ?? 0) + 1;
        if (q.status === 429) tooMany++;
      } else if (/oauth2\/token$/.test(endpoint)) tokenRequests++;
    }
    for (const [method, n] of Object.entries(c.sheetsByMethod)) kinds[sheetsKind(method)] += n;
    sheetsCalls += c.sheetsCalls;
    cells += c.cellsWritten;
    cellsRead += c.cellsRead;
    refusals += c.quotaRefusals;
    clockMs += r.elapsedMs;
    for (const [service, ms] of Object.entries(c.modelledMsByService)) {
      if (service === 'UrlFetchApp') split.api += ms;
      else if (service === 'SpreadsheetApp' || service === 'Sheets') split.sheets += ms;
      else split.storage += ms;
    }
    split.waiting += c.sleptMs;
    if (c.workerCpuMs === null) cpuUnknown++;
    else cpuMs += c.workerCpuMs;
    peakHeap = Math.max(peakHeap, c.peakHeapBytes);
    if (r.timedOut) timedOut++;
  }
  split.javascript = cpuMs;
  const seconds = Object.fromEntries(
    Object.entries(split).map(([k, ms]) => [k, round(ms / 1000)]),
  ) as unknown as TimeSplit;
  const modelledMs = split.api + split.sheets + split.waiting + split.javascript + split.storage;
  return {
    executions: input.results.length,
    api_requests: apiRequests,
    api_requests_by_endpoint: byEndpoint,
    token_requests: tokenRequests,
    api_429s: tooMany,
    bytes_received: bytes,
    sheets_calls: sheetsCalls,
    sheets_calls_by_kind: kinds,
    sheets_write_requests: kinds.api_write + kinds.spreadsheetapp_write,
    sheets_writes_per_minute_max: input.sheetsWritesPerMinuteMax,
    sheets_quota_refusals: refusals,
    cells_written: cells,
    cells_read: cellsRead,
    modelled_seconds: round(modelledMs / 1000),
    time_split_seconds: seconds,
    clock_seconds: round(clockMs / 1000),
    js_cpu_ms_per_1000_orders:
      cpuUnknown < input.results.length && input.orders > 0 ? round((cpuMs / input.orders) * 1000, 0) : null,
    cpu_unknown_executions: cpuUnknown,
    peak_heap_mb: round(peakHeap / 1_048_576),
    hourly_api_budget_share_pct: round((apiRequests / HOURLY_API_BUDGET) * 100),
    timed_out: timedOut,
  };
}

/** Modelled seconds of the services (API, Sheets, waits, storage): the figure without the JavaScript part, which is measured CPU time. */
export function serviceSeconds(f: Figures): number {
  const s = f.time_split_seconds;
  return round(s.api + s.sheets + s.waiting + s.storage);
}
