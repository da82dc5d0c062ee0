/**
 * SpreadsheetApp batches its writes; the Advanced Sheets service does not see them until they are
 * applied. Google: "Spreadsheet operations are sometimes bundled together to improve performance,
 * such as when doing multiple calls to Range.getValue(). However, sometimes you may want to make
 * sure that all pending changes are made right away" (SpreadsheetApp.flush, reference page), and
 * apps-script-facts.md "SpreadsheetApp batches its writes".
 *
 * Model (host side, one buffer per spreadsheet):
 * - A SpreadsheetApp write on a sheet (values, formats, notes, styles, inserted rows and columns,
 *   frozen rows, widths, developer metadata) is applied to the sheet SpreadsheetApp sees at once
 *   (its arguments are checked, and its errors thrown, at the call), but the Sheets API keeps
 *   seeing the sheet as it was before the first pending write: a snapshot.
 * - Pending writes are applied — the snapshot dropped — by `SpreadsheetApp.flush()`, by a
 *   SpreadsheetApp read of that sheet (values, formats, grid size, metadata), by a structural
 *   call (insertSheet, deleteSheet, rename, time zone: they need the server's answer), and by the
 *   end of the execution. An execution ended by the time limit loses them (unconfirmed: the
 *   stricter reading).
 * - A Sheets API read sees the snapshots; a Sheets API write is applied to the snapshots (so a
 *   `Values.batchUpdate` past a grid whose growth is still pending fails: "exceeds grid limits"),
 *   then the pending SpreadsheetApp writes are replayed on top, as Google applies them later.
 * - Navigation calls that need no server answer (getRange on a known grid is NOT one: it checks
 *   the grid) neither buffer nor flush: names, ids, a range's own coordinates.
 * One buffer is shared by executions running at the same time on the spreadsheet (a known
 * simplification: Google keeps one per execution).
 */
import type { CallInterceptor, InterceptedCall } from '../types';
import { SheetModel } from './sheet-model';
import type { DeveloperMetadataRecord, Workbook } from './workbook';

const WRITE_METHOD = /^(set|insert|delete|append|add|clear|hide|show|autoResize|remove|merge|sort)/;
/** Calls answered from what the client already holds. */
const LOCAL_METHODS = new Set([
  'getRow',
  'getColumn',
  'getNumRows',
  'getNumColumns',
  'getA1Notation',
  'getSheet',
  'getCell',
  'offset',
  'getParent',
  'getName',
  'getSheetId',
  'getIndex',
  'activate',
  'getId',
  'getUrl',
  'getSheets',
  'getNumSheets',
  'getSheetByName',
  'getSheetById',
  'getActiveSheet',
  'getSpreadsheetTimeZone',
  'getSpreadsheetLocale',
  'toast',
  'withKey',
  'withValue',
  'withId',
  'withVisibility',
  'withLocationType',
  'getLocationType',
  'getSpreadsheet',
]);
/** Writes that move or tag rows and columns also change developer metadata locations. */
const METADATA_WRITE = /DeveloperMetadata|^insert|^delete|^setKey$|^setValue$|^setVisibility$|^remove$/;
const SPREADSHEET_CLASSES = new Set(['Spreadsheet']);
const METADATA_CLASSES = new Set(['DeveloperMetadata', 'DeveloperMetadataFinder', 'DeveloperMetadataLocation']);

interface PendingWrite {
  sheet: SheetModel | null;
  target: object;
  method: string;
  args: unknown[];
}

function cloneSheet(sheet: SheetModel): SheetModel {
  const copy = new SheetModel(sheet.sheetId, sheet.name);
  restoreSheet(copy, sheet);
  return copy;
}

/** Makes `into` hold `from`'s content (handles to `into` stay valid); rows are shared until written. */
function restoreSheet(into: SheetModel, from: SheetModel): void {
  from._shareInto(into);
}

function cloneMetadata(list: DeveloperMetadataRecord[]): DeveloperMetadataRecord[] {
  return list.map((m) => ({ ...m, location: { ...m.location } }));
}

/**
 * The live list after a Sheets API write: what the server now holds, carried into the live records
 * (matched by id) rather than fresh copies, so that the DeveloperMetadata objects the script holds,
 * and the pending writes replayed on them next, still reach the spreadsheet.
 */
function adoptServerMetadata(
  live: DeveloperMetadataRecord[],
  server: DeveloperMetadataRecord[],
): DeveloperMetadataRecord[] {
  const byId = new Map(live.map((m) => [m.id, m]));
  return server.map((m) => {
    const record = byId.get(m.id);
    if (!record) return { ...m, location: { ...m.location } };
    for (const key of Object.keys(record)) if (!(key in m)) delete (record as unknown as Record<string, unknown>)[key];
    Object.assign(record, m, { location: { ...m.location } });
    return record;
  });
}

function modelOf(target: object): SheetModel | null {
  const model = (target as { _model?: () => SheetModel })._model;
  return typeof model === 'function' ? model.call(target) : null;
}

export class SpreadsheetWriteBuffer implements CallInterceptor {
  /** Sheet (as SpreadsheetApp sees it) → the sheet as the Sheets API sees it. */
  private readonly snapshots = new Map<SheetModel, SheetModel>();
  private metadata: DeveloperMetadataRecord[] | null = null;
  private writes: PendingWrite[] = [];

  constructor(private readonly workbook: Workbook) {}

  get pending(): boolean {
    return this.writes.length > 0;
  }

  around(call: InterceptedCall, proceed: () => unknown): unknown {
    if (call.family === 'SpreadsheetApp') return this.spreadsheetCall(call, proceed);
    if (call.className.startsWith('Sheets') && this.pending) return this.apiCall(call, proceed);
    return proceed();
  }

  end(completed: boolean): void {
    if (completed) this.flushAll();
    else this.discard();
  }

  private spreadsheetCall(call: InterceptedCall, proceed: () => unknown): unknown {
    const { className, method } = call;
    if (className === 'SpreadsheetApp') {
      if (method === 'flush') this.flushAll();
      return proceed();
    }
    if (className === 'Ui' || className === 'Menu' || LOCAL_METHODS.has(method)) return proceed();
    const sheet = SPREADSHEET_CLASSES.has(className) || METADATA_CLASSES.has(className) ? null : modelOf(call.target);
    const isWrite = WRITE_METHOD.test(method) && method !== 'setName';
    const bufferable =
      isWrite && (sheet !== null || METADATA_CLASSES.has(className) || method === 'addDeveloperMetadata');
    if (!bufferable) {
      // A read of a sheet applies that sheet's pending writes; anything else needs the server's whole state.
      if (sheet !== null && !/DeveloperMetadata/.test(method)) this.flushSheet(sheet);
      else this.flushAll();
      return proceed();
    }
    if (sheet && !this.snapshots.has(sheet)) this.snapshots.set(sheet, cloneSheet(sheet));
    if ((METADATA_WRITE.test(method) || METADATA_CLASSES.has(className)) && this.metadata === null) {
      this.metadata = cloneMetadata(this.workbook.developerMetadata);
    }
    const result = proceed();
    this.writes.push({ sheet, target: call.target, method, args: call.args });
    return result;
  }

  /** The Sheets API call, run against the sheets as the server holds them. */
  private apiCall(call: InterceptedCall, proceed: () => unknown): unknown {
    const live = this.workbook.sheets;
    const liveMetadata = this.workbook.developerMetadata;
    this.workbook.sheets = live.map((s) => this.snapshots.get(s) ?? s);
    if (this.metadata) this.workbook.developerMetadata = this.metadata;
    const byId = new Map<number, SheetModel>();
    for (const [sheet, snapshot] of this.snapshots) byId.set(snapshot.sheetId, sheet);
    try {
      return proceed();
    } finally {
      const seen = this.workbook.sheets;
      if (this.metadata) this.metadata = this.workbook.developerMetadata;
      if (isApiWrite(call.method)) {
        this.workbook.sheets = seen.map((s) => {
          const liveSheet = byId.get(s.sheetId);
          return liveSheet && this.snapshots.get(liveSheet) === s ? liveSheet : s;
        });
        if (this.metadata) this.workbook.developerMetadata = adoptServerMetadata(liveMetadata, this.metadata);
        this.replay();
      } else {
        this.workbook.sheets = live;
        this.workbook.developerMetadata = liveMetadata;
      }
    }
  }

  /** Live sheets = what the server holds + the pending SpreadsheetApp writes, in their order. */
  private replay(): void {
    for (const [sheet, snapshot] of this.snapshots) {
      if (!this.workbook.sheets.includes(sheet)) this.snapshots.delete(sheet);
      else restoreSheet(sheet, snapshot);
    }
    for (const w of this.writes) {
      const fn = (w.target as Record<string, unknown>)[w.method];
      try {
        if (typeof fn === 'function') (fn as (...a: unknown[]) => unknown).apply(w.target, w.args);
      } catch {
        // Google reports a pending write that no longer applies at the flush; the API's write stands.
      }
    }
  }

  private flushSheet(sheet: SheetModel): void {
    if (!this.snapshots.has(sheet)) return;
    const own = this.writes.filter((w) => w.sheet === sheet);
    if (own.length === this.writes.length || own.some((w) => METADATA_WRITE.test(w.method))) {
      this.flushAll();
      return;
    }
    this.snapshots.delete(sheet);
    this.writes = this.writes.filter((w) => w.sheet !== sheet);
  }

  flushAll(): void {
    this.snapshots.clear();
    this.metadata = null;
    this.writes = [];
  }

  /** The pending writes never reach the spreadsheet: every sheet goes back to its snapshot. */
  private discard(): void {
    for (const [sheet, snapshot] of this.snapshots) restoreSheet(sheet, snapshot);
    if (this.metadata) this.workbook.developerMetadata = this.metadata;
    this.flushAll();
  }
}

const API_READS = new Set(['get', 'batchGet', 'batchGetByDataFilter', 'getByDataFilter', 'search']);

/** Google's quota and this buffer count every Sheets API method that is not a read as a write. */
export function isApiWrite(method: string): boolean {
  return !API_READS.has(method);
}

const buffers = new WeakMap<Workbook, SpreadsheetWriteBuffer>();

/** The spreadsheet's buffer (one per workbook, shared by its executions). */
export function writeBufferOf(workbook: Workbook): SpreadsheetWriteBuffer {
  let buffer = buffers.get(workbook);
  if (!buffer) {
    buffer = new SpreadsheetWriteBuffer(workbook);
    buffers.set(workbook, buffer);
  }
  return buffer;
}
