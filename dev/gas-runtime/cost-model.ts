import { bigQueryCallMs } from './services/bigquery-cost.js';
import { dataSourceCallMs } from './spreadsheet/data-source-cost.js';

/**
 * Modelled cost of Apps Script service calls, from /work/shared/design/apps-script-cost-model.md.
 * Calls, cells and requests are exact; milliseconds are orders of magnitude (see README.md for the
 * figures and their sources). Real time spent (HTTP, waits) already moves the runtime clock, so
 * only the platform overhead is added here.
 */

export interface CallCost {
  ms: number;
  cellsRead: number;
  cellsWritten: number;
}

/** Sums the cells of a 2-D array (rows of values). */
function cellsOf(grid: unknown): number {
  if (!Array.isArray(grid)) return 0;
  let cells = 0;
  for (const row of grid) cells += Array.isArray(row) ? row.length : 1;
  return cells;
}

interface ValueRangeLike {
  values?: unknown;
}

function valueRanges(list: unknown): ValueRangeLike[] {
  return Array.isArray(list) ? (list.filter((r) => r !== null && typeof r === 'object') as ValueRangeLike[]) : [];
}

function field(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[key] : undefined;
}

const SET_VALUES_FIXED_MS = 260; // Tanaike 2023 (V8): setValues on separate ranges, ~0.26 s per call
const SET_VALUES_PER_CELL_MS = 0.06; // Tanaike 2018: ~60 µs per cell above ~15k cells
const BULK_THRESHOLD_CELLS = 15_000;
const GET_VALUES_FIXED_MS = 100; // Tanaike 2023 (V8): getValues in a loop, ~0.1 s per call
const READ_PER_CELL_MS = 0.01; // Tanaike 2018: ~10 µs per cell
const BATCH_UPDATE_FIXED_MS = 330; // Tanaike 2023: Values.batchUpdate ~0.33 s
const BATCH_UPDATE_PER_RANGE_MS = 0.7; // Tanaike 2023: ~0.7 ms per range
const BATCH_GET_FIXED_MS = 240; // Tanaike 2023: Values.batchGet ~0.24 s
const BATCH_GET_PER_RANGE_MS = 0.45; // Tanaike 2023: ~0.45 ms per range
const APPEND_ROW_MS = 110; // Tanaike 2018
const OTHER_SPREADSHEET_MS = 10; // assumption: no published figure for navigation calls (getSheetByName, getRange, ...)
const URL_FETCH_OVERHEAD_MS = 60; // Poehnelt 2024: ~60 ms platform overhead + server time
const FETCH_ALL_OVERHEAD_MS = 500; // Tanaike 2018, Poehnelt 2025: slowest request + ~0.5 s
const PROPERTIES_GET_MS = 40; // Poehnelt 2024: 30-50 ms
const PROPERTIES_SET_MS = 70; // Poehnelt 2024: 60-75 ms
const CACHE_GET_MS = 25; // Poehnelt 2024: 3-45 ms
const CACHE_PUT_MS = 100; // Poehnelt 2024: 90-110 ms
const LOCK_MS = 10; // assumption: no published figure
/**
 * Poehnelt 2024 measured Properties calls flat up to 16 KB and Cache calls flat up to 100 KB; Google
 * publishes nothing beyond. A bulk call (getProperties, setProperties, getAll, putAll) can move more:
 * the stricter reading bills each further span of that size as another call.
 */
const PROPERTIES_FLAT_BYTES = 16 * 1024;
const CACHE_FLAT_BYTES = 100 * 1024;
const BULK_SPANS: Record<string, number> = {
  'Properties.getProperties': PROPERTIES_FLAT_BYTES,
  'Properties.setProperties': PROPERTIES_FLAT_BYTES,
  'Cache.getAll': CACHE_FLAT_BYTES,
  'Cache.putAll': CACHE_FLAT_BYTES,
};

/** Bytes of the keys and values a bulk storage call moved (UTF-8). */
function storageBytes(map: unknown): number {
  if (map === null || typeof map !== 'object') return 0;
  let bytes = 0;
  for (const [key, value] of Object.entries(map as Record<string, unknown>))
    bytes += Buffer.byteLength(key) + Buffer.byteLength(typeof value === 'string' ? value : String(value));
  return bytes;
}

/** Calls a bulk storage call is billed as: its answer (reads) or its argument (writes), by span. */
function storageSpans(qualifiedName: string, args: unknown[], result: unknown): number {
  const span = BULK_SPANS[qualifiedName];
  if (span === undefined) return 1;
  const moved = /get/.test(qualifiedName) ? storageBytes(result) : storageBytes(args[0]);
  return Math.max(1, Math.ceil(moved / span));
}

const READ_GRID_METHODS = new Set([
  'getValues',
  'getDisplayValues',
  'getFormulas',
  'getFormulasR1C1',
  'getNotes',
  'getRichTextValues',
]);
const WRITE_GRID_METHODS = new Set(['setValues', 'setFormulas', 'setFormulasR1C1', 'setNotes', 'setRichTextValues']);
const READ_CELL_METHODS = new Set(['getValue', 'getDisplayValue', 'getFormula', 'getNote']);
const WRITE_CELL_METHODS = new Set(['setValue', 'setFormula', 'setNote']);

function spreadsheetCost(method: string, args: unknown[], result: unknown): CallCost {
  if (READ_GRID_METHODS.has(method)) {
    const cells = cellsOf(result);
    return { ms: GET_VALUES_FIXED_MS + cells * READ_PER_CELL_MS, cellsRead: cells, cellsWritten: 0 };
  }
  if (WRITE_GRID_METHODS.has(method)) {
    const cells = cellsOf(args[0]);
    const bulk = Math.max(0, cells - BULK_THRESHOLD_CELLS) * SET_VALUES_PER_CELL_MS;
    return { ms: SET_VALUES_FIXED_MS + bulk, cellsRead: 0, cellsWritten: cells };
  }
  if (READ_CELL_METHODS.has(method)) return { ms: GET_VALUES_FIXED_MS, cellsRead: 1, cellsWritten: 0 };
  if (WRITE_CELL_METHODS.has(method)) return { ms: SET_VALUES_FIXED_MS, cellsRead: 0, cellsWritten: 1 };
  if (method === 'appendRow') {
    return { ms: APPEND_ROW_MS, cellsRead: 0, cellsWritten: Array.isArray(args[0]) ? args[0].length : 0 };
  }
  return { ms: OTHER_SPREADSHEET_MS, cellsRead: 0, cellsWritten: 0 };
}

function sheetsValuesCost(method: string, args: unknown[], result: unknown): CallCost {
  switch (method) {
    case 'batchUpdate': {
      const ranges = valueRanges(field(args[0], 'data'));
      const cells = ranges.reduce((sum, r) => sum + cellsOf(r.values), 0);
      const ms = BATCH_UPDATE_FIXED_MS + ranges.length * BATCH_UPDATE_PER_RANGE_MS + cells * READ_PER_CELL_MS;
      return { ms, cellsRead: 0, cellsWritten: cells };
    }
    case 'update':
    case 'append': {
      const cells = cellsOf(field(args[0], 'values'));
      return { ms: BATCH_UPDATE_FIXED_MS + cells * READ_PER_CELL_MS, cellsRead: 0, cellsWritten: cells };
    }
    case 'batchGet':
    case 'batchGetByDataFilter': {
      const ranges = valueRanges(field(result, 'valueRanges'));
      // batchGetByDataFilter answers MatchedValueRanges: the cells are in each one's valueRange.
      const cells = ranges.reduce((sum, r) => sum + cellsOf(r.values ?? field(field(r, 'valueRange'), 'values')), 0);
      const ms = BATCH_GET_FIXED_MS + ranges.length * BATCH_GET_PER_RANGE_MS + cells * READ_PER_CELL_MS;
      return { ms, cellsRead: cells, cellsWritten: 0 };
    }
    case 'get': {
      const cells = cellsOf(field(result, 'values'));
      return { ms: BATCH_GET_FIXED_MS + cells * READ_PER_CELL_MS, cellsRead: cells, cellsWritten: 0 };
    }
    default:
      return { ms: BATCH_UPDATE_FIXED_MS, cellsRead: 0, cellsWritten: 0 };
  }
}

/** Cells of the grid data a Spreadsheets.get returned (sheets[].data[].rowData[].values), as read per cell. */
function gridCellsOf(result: unknown): number {
  let cells = 0;
  for (const sheet of valueRanges(field(result, 'sheets'))) {
    for (const grid of valueRanges(field(sheet, 'data'))) {
      for (const row of valueRanges(field(grid, 'rowData'))) cells += cellsOf([row.values ?? []]);
    }
  }
  return cells;
}

const FLAT_COSTS: Record<string, number> = {
  'UrlFetchApp.fetch': URL_FETCH_OVERHEAD_MS,
  'UrlFetchApp.fetchAll': FETCH_ALL_OVERHEAD_MS,
  'Properties.getProperty': PROPERTIES_GET_MS,
  'Properties.getProperties': PROPERTIES_GET_MS,
  'Properties.getKeys': PROPERTIES_GET_MS,
  'Properties.setProperty': PROPERTIES_SET_MS,
  'Properties.setProperties': PROPERTIES_SET_MS,
  'Properties.deleteProperty': PROPERTIES_SET_MS,
  'Properties.deleteAllProperties': PROPERTIES_SET_MS,
  'Cache.get': CACHE_GET_MS,
  'Cache.getAll': CACHE_GET_MS,
  'Cache.put': CACHE_PUT_MS,
  'Cache.putAll': CACHE_PUT_MS,
  'Cache.remove': CACHE_PUT_MS,
  'Cache.removeAll': CACHE_PUT_MS,
  'Lock.tryLock': LOCK_MS,
  'Lock.waitLock': LOCK_MS,
  'Lock.releaseLock': LOCK_MS,
};

/**
 * @param qualifiedName "<Class>.<method>" as counted, e.g. "Range.setValues",
 *   "Sheets.Spreadsheets.Values.batchUpdate".
 * @param family the root service the call descends from ("SpreadsheetApp", "Sheets", ...).
 */
export function costOf(
  family: string,
  qualifiedName: string,
  args: unknown[],
  result: unknown,
  target?: object,
): CallCost {
  const method = qualifiedName.slice(qualifiedName.lastIndexOf('.') + 1);
  if (family === 'Sheets' && qualifiedName.includes('Values.')) return sheetsValuesCost(method, args, result);
  if (family === 'Sheets' && qualifiedName === 'Sheets.Spreadsheets.get') {
    const cells = gridCellsOf(result);
    return { ms: BATCH_UPDATE_FIXED_MS + cells * READ_PER_CELL_MS, cellsRead: cells, cellsWritten: 0 };
  }
  if (family === 'Sheets' && qualifiedName === 'Sheets.Spreadsheets.batchUpdate') {
    // Cell values and notes an updateCells request writes count as a Values.batchUpdate's do.
    const cells = valueRanges(field(args[0], 'requests')).reduce((sum, r) => {
      const rows = valueRanges(field(field(r, 'updateCells'), 'rows'));
      return sum + rows.reduce((n, row) => n + cellsOf([field(row, 'values') ?? []]), 0);
    }, 0);
    return { ms: BATCH_UPDATE_FIXED_MS + cells * READ_PER_CELL_MS, cellsRead: 0, cellsWritten: cells };
  }
  if (family === 'Sheets') return { ms: BATCH_UPDATE_FIXED_MS, cellsRead: 0, cellsWritten: 0 };
  if (family === 'BigQuery') return { ms: bigQueryCallMs(result), cellsRead: 0, cellsWritten: 0 };
  if (family === 'SpreadsheetApp' && (/^(Ui|Menu)\./.test(qualifiedName) || qualifiedName === 'SpreadsheetApp.getUi'))
    return { ms: 0, cellsRead: 0, cellsWritten: 0 };
  const connected = family === 'SpreadsheetApp' ? dataSourceCallMs(qualifiedName, target) : null;
  if (connected !== null) return { ms: connected, cellsRead: 0, cellsWritten: 0 };
  if (family === 'SpreadsheetApp') return spreadsheetCost(method, args, result);
  const ms = (FLAT_COSTS[qualifiedName] ?? 0) * storageSpans(qualifiedName, args, result);
  return { ms, cellsRead: 0, cellsWritten: 0 };
}
