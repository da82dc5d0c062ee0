/**
 * Ground truth for the sync tests: every managed sheet compared CELL FOR CELL with the emulator's
 * truth, by header name. The expectation is built here from the truth JSON on its own terms
 * (field lookup by header, ISO instants, the store-zone calendar day via toLocaleDateString) and
 * never through the add-on's mapper, so a mapping bug cannot hide behind an echo.
 */
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { Stack } from '../../dev/harness/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

type Json = Record<string, unknown>;
type Cell = string | number | boolean;
type Table = Cell[][];

export interface Mismatch {
  sheet: string;
  key: string;
  header: string;
  expected: unknown;
  actual: unknown;
}

export interface Comparison {
  mismatches: Mismatch[];
  missing: string[];
  unexpected: string[];
  duplicates: string[];
}

/** Columns whose value is the sync's own bookkeeping, not API data. */
const BOOKKEEPING = new Set(['synced_at', 'gone_at']);

const isInstantHeader = (header: string): boolean => /_at$|effective_from$/.test(header);

/**
 * A date-time cell holds a wall-clock time in the spreadsheet's zone (a serial number), so an
 * instant is compared as that wall time: in the hour repeated when DST ends, two instants share
 * one wall time and no sheet can tell them apart.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * What `toLocaleString(locale, { timeZone, hourCycle: 'h23' })` (with time) or `toLocaleDateString(locale,
 * { timeZone })` gives, from one kept formatter per zone: those build a new formatter on every call,
 * which made comparing a sheet with the truth the slowest part of a test.
 */
function formatter(locale: 'sv-SE' | 'en-CA', timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${withTime}`;
  let kept = formatters.get(key);
  if (!kept) {
    const date = { year: 'numeric', month: 'numeric', day: 'numeric' } as const;
    const time = { hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' } as const;
    kept = new Intl.DateTimeFormat(locale, withTime ? { timeZone, ...date, ...time } : { timeZone, ...date });
    formatters.set(key, kept);
  }
  return kept;
}

function wallTime(iso: string, timeZone: string): string {
  const d = new Date(iso);
  return `${formatter('sv-SE', timeZone, true).format(d)}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

function expectedCell(value: unknown, header: string, timeZone: string): Cell {
  if (value === null || value === undefined) return '';
  // The API's percentages are points (spec 2.3 rules 2 and 4: "× 100"); a Sheets percent cell holds the fraction.
  if (typeof value === 'number' && header.endsWith('_pct')) return Number((value / 100).toPrecision(15));
  if (typeof value === 'string' && isInstantHeader(header) && !Number.isNaN(Date.parse(value)))
    return wallTime(value, timeZone);
  return value as Cell;
}

function actualCell(value: Cell, header: string, timeZone: string): Cell {
  if (typeof value === 'string' && isInstantHeader(header) && /^\d{4}-\d{2}-\d{2}T/.test(value))
    return wallTime(value, timeZone);
  return value;
}

function sameCell(expected: Cell, actual: Cell): boolean {
  // Google's cell limit: longer text must be cut visibly, keeping its beginning.
  if (typeof expected === 'string' && expected.length > 50_000) {
    return (
      typeof actual === 'string' &&
      actual.length <= 50_000 &&
      actual.startsWith(expected.slice(0, 49_000)) &&
      /truncated/.test(actual.slice(-60))
    );
  }
  if (typeof expected === 'number' && typeof actual === 'number') return Math.abs(expected - actual) < 1e-9;
  return expected === actual;
}

/** The header's value in an API record: own field, else the one nested object holding it. */
function lookup(
  record: Json,
  header: string,
  nestedIn: readonly string[],
  prefixed: Record<string, string> = {},
): unknown {
  for (const [prefix, objectName] of Object.entries(prefixed)) {
    if (header.startsWith(prefix)) {
      const inner = record[objectName] as Json | null | undefined;
      return inner ? inner[header.slice(prefix.length)] : null;
    }
  }
  if (header in record) return record[header];
  for (const name of nestedIn) {
    const inner = record[name] as Json | null | undefined;
    if (inner && header in inner) return inner[header];
  }
  return undefined;
}

function localDay(iso: string, timeZone: string): string {
  return formatter('en-CA', timeZone, false).format(new Date(iso));
}

/**
 * The 0-based column of a table's key, by its header: a record table's "id" (Orders shows it last),
 * else the first column (a day, a month).
 */
export function keyColumn(table: readonly (readonly unknown[])[]): number {
  const at = (table[0] ?? []).indexOf('id');
  return at >= 0 ? at : 0;
}

export function sheetTable(stack: Stack, name: string): Table {
  return (stack.runtime.exportJson().sheets[name] ?? []) as Table;
}

/** Sorts a sheet's data rows (the header stays) by one column, as Data → Sort range does. */
export function sortSheet(stack: Stack, name: string, header: string, descending = false): void {
  const model = (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
  const column = sheetTable(stack, name)[0].indexOf(header);
  const key = (row: SheetModel['rows'][number]): string | number => {
    const v = row?.v[column];
    return typeof v === 'number' ? v : String(v ?? '');
  };
  const last = model.lastRow();
  const data = model.rows.slice(1, last);
  data.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
  model.rows = [model.rows[0], ...data, ...model.rows.slice(last)];
}

/** Deletes one row (1-based) the way Sheets does: the rows below move up. */
export function deleteSheetRow(stack: Stack, name: string, row: number): void {
  const model = (stack.runtime.workbook as unknown as Workbook).sheetByName(name) as SheetModel;
  model.rows.splice(row - 1, 1);
  model.maxRows -= 1;
}

/** The Checks sheet's result and note for a period (a day or a month); undefined when it has no row. */
export function checksRow(stack: Stack, period: string): { result: Cell; note: Cell } | undefined {
  const [headers = [], ...rows] = sheetTable(stack, 'Checks');
  const row = rows.find((r) => r[headers.indexOf('period')] === period);
  return row ? { result: row[headers.indexOf('result')], note: row[headers.indexOf('note')] } : undefined;
}

/** The Checks sheet's scope line: which figures it proves, from which day, and which it does not. */
export function checksScope(stack: Stack): string {
  const [headers = [], ...rows] = sheetTable(stack, 'Checks');
  return String(rows.find((r) => r[headers.indexOf('kind')] === 'scope')?.[headers.indexOf('note')] ?? '');
}

function rowsByKey(table: Table, keyHeader: string, sheet: string, out: Comparison): Map<string, Record<string, Cell>> {
  const [headers = [], ...rows] = table;
  const k = headers.indexOf(keyHeader);
  const map = new Map<string, Record<string, Cell>>();
  for (const row of rows) {
    const key = String(row[k] ?? '');
    if (key === '') continue;
    if (map.has(key)) out.duplicates.push(`${sheet}:${key}`);
    const record: Record<string, Cell> = {};
    headers.forEach((h, i) => (record[String(h)] = row[i] ?? ''));
    map.set(key, record);
  }
  return map;
}

let spreadsheetZone = 'UTC';

/** Headers of the user's own columns (right of the managed ones): not API data. */
let userColumns: ReadonlySet<string> = new Set();

/** Headers of columns no longer synced: a cell there is empty or the truth, never another figure. */
let retiredColumns: ReadonlySet<string> = new Set();

function compareRecords(
  sheet: string,
  key: string,
  actual: Record<string, Cell>,
  expectedOf: (header: string) => unknown,
  out: Comparison,
): void {
  for (const header of Object.keys(actual)) {
    if (header === '' || BOOKKEEPING.has(header) || userColumns.has(header)) continue; // a user's own column, or sync bookkeeping
    const expected = expectedCell(expectedOf(header), header, spreadsheetZone);
    const held = actualCell(actual[header], header, spreadsheetZone);
    if (retiredColumns.has(header) && held === '') continue;
    if (!sameCell(expected, held)) out.mismatches.push({ sheet, key, header, expected, actual: held });
  }
}

export interface TruthOptions {
  /** Orders that vanished and were reconciled: expected status gone (with a gone_at). */
  expectGone?: ReadonlySet<string>;
  /** Plan window start (YYYY-MM-DD, store zone): older orders are not expected in the sheet. */
  placedFrom?: string;
  /** Orders in the sheet that left the plan window since (kept as they were, never gone). */
  expectKept?: ReadonlySet<string>;
  /** Managed sheets the user renamed (the sync follows them): schema name → name in the workbook. */
  sheetNames?: Readonly<Record<string, string>>;
  /** Headings the user renamed (the sync finds those columns by their tag): the name given → the API key. */
  renamedHeaders?: Readonly<Record<string, string>>;
  /** Headers of columns the user added to the right of the managed ones. */
  userColumns?: readonly string[];
  /** Headers of columns the sync no longer writes (sidebar → Columns): empty cells pass, any figure must be the truth. */
  retiredColumns?: readonly string[];
}

/**
 * The truth's reading of a line's cost (spec 2.3/2.5): its order knows no cost → unknown; all of
 * it → known; a line with a cost above 0 → known; a zero-cost line in a partly covered order is
 * unknown or possibly_unknown (which one needs the order's unit arithmetic: the line alone allows
 * both). Returns the sheet's value when it is allowed, else what was allowed.
 */
function lineCostReading(order: Json, line: Json, actual: unknown): string {
  const e = order.economics as { cogs_source?: unknown; cogs_coverage_pct?: unknown };
  if (e.cogs_source === 'unknown') return 'unknown';
  if (typeof e.cogs_coverage_pct !== 'number' || e.cogs_coverage_pct >= 100) return 'known';
  if (typeof line.cogs === 'number' && line.cogs !== 0) return 'known';
  return actual === 'unknown' || actual === 'possibly_unknown' ? actual : 'unknown or possibly_unknown';
}

/** Orders, Line items, Products, Variants and Daily P&L against the emulator's truth. */
/** The store's time zone and today, as the emulator's truth has them (the API's days are store-local). */
export async function storeDay(stack: Stack): Promise<{ timeZone: string; today: string }> {
  const store = (await stack.truth('store')) as Json;
  return { timeZone: String((store.store as Json).timezone), today: String(store.today) };
}

/**
 * Moves both clocks forward to the next whole hour that is `hour` o'clock in the store's zone, so
 * that a test's later hours of advancing stay in one store day (a new store day is a new Daily P&L
 * row: data that changed). Returns that instant.
 */
export async function advanceToStoreHour(stack: Stack, hour: number): Promise<number> {
  const { timeZone } = await storeDay(stack);
  const hourIn = (ms: number): number =>
    Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(ms));
  const now = Date.parse(((await stack.control('clock')) as { now: string }).now);
  let target = Math.ceil(now / 3_600_000) * 3_600_000;
  while (hourIn(target) !== hour) target += 3_600_000;
  await stack.advanceClocks(target - now);
  return target;
}

export async function compareWithTruth(stack: Stack, options: TruthOptions = {}): Promise<Comparison> {
  const out: Comparison = { mismatches: [], missing: [], unexpected: [], duplicates: [] };
  const table = (name: string): Table => {
    const [headers = [], ...rows] = sheetTable(stack, options.sheetNames?.[name] ?? name);
    const renamed = options.renamedHeaders ?? {};
    return [headers.map((h) => (typeof h === 'string' && h in renamed ? renamed[h] : h)), ...rows];
  };
  spreadsheetZone = stack.runtime.workbook.timeZone;
  userColumns = new Set(options.userColumns ?? []);
  retiredColumns = new Set(options.retiredColumns ?? []);
  const { timeZone, today } = await storeDay(stack);
  const allOrders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const orders = options.placedFrom
    ? allOrders.filter((o) => localDay(String(o.created_at), timeZone) >= options.placedFrom!)
    : allOrders;
  const products = ((await stack.truth('products')) as { data: Json[] }).data;

  const orderRows = rowsByKey(table('Orders'), 'id', 'Orders', out);
  const truthIds = new Set(orders.map((o) => String(o.id)));
  for (const o of orders) {
    const actual = orderRows.get(String(o.id));
    if (!actual) {
      out.missing.push(`Orders:${o.id}`);
      continue;
    }
    compareRecords(
      'Orders',
      String(o.id),
      actual,
      (h) => {
        if (h === 'status') return o.canceled_at ? 'cancelled' : 'active';
        if (h === 'placed_date') return localDay(String(o.created_at), timeZone);
        // The truth's own reading of its cost fields: none known, part of it, or all.
        if (h === 'cost_status') {
          const e = o.economics as { cogs_source?: unknown; cogs_coverage_pct?: unknown };
          return e.cogs_source === 'unknown'
            ? 'unknown'
            : typeof e.cogs_coverage_pct === 'number' && e.cogs_coverage_pct < 100
              ? 'incomplete'
              : 'complete';
        }
        return lookup(o, h, ['economics', 'attribution']);
      },
      out,
    );
  }
  for (const [id, row] of orderRows) {
    if (truthIds.has(id)) continue;
    if (options.expectKept?.has(id) && row.status !== 'gone') continue;
    const gone = options.expectGone?.has(id) ?? false;
    if (!gone || row.status !== 'gone' || row.gone_at === '')
      out.unexpected.push(`Orders:${id} (status ${String(row.status)})`);
  }

  const lineRows = rowsByKey(table('Line items'), 'id', 'Line items', out);
  const truthLines = new Set<string>();
  for (const o of orders) {
    for (const li of (o.line_items as Json[]) ?? []) {
      truthLines.add(String(li.id));
      const actual = lineRows.get(String(li.id));
      if (!actual) {
        out.missing.push(`Line items:${li.id}`);
        continue;
      }
      // A line item carries its order's status (spec 2.6): a pivot on it excludes cancelled orders.
      const itemStatus = o.canceled_at ? 'cancelled' : 'active';
      compareRecords(
        'Line items',
        String(li.id),
        actual,
        (h) => {
          if (h === 'order_id') return o.id;
          // Its order's number, as Orders shows it.
          if (h === 'order_number') return o.order_number;
          if (h === 'sync_status') return itemStatus;
          if (h === 'cost_status') return lineCostReading(o, li, actual.cost_status);
          return lookup(li, h, []);
        },
        out,
      );
    }
  }
  for (const [id, row] of lineRows) {
    const orderGone = !truthIds.has(String(row.order_id));
    if (!truthLines.has(id) && row.sync_status !== 'removed' && !orderGone) out.unexpected.push(`Line items:${id}`);
    // The line items of an order marked gone are gone with it (or were removed before).
    if (
      orderGone &&
      options.expectGone?.has(String(row.order_id)) &&
      row.sync_status !== 'gone' &&
      row.sync_status !== 'removed'
    ) {
      out.unexpected.push(`Line items:${id} (sync_status ${String(row.sync_status)} of a gone order)`);
    }
  }

  const productRows = rowsByKey(table('Products'), 'id', 'Products', out);
  const variantRows = rowsByKey(table('Variants'), 'id', 'Variants', out);
  for (const p of products) {
    const actual = productRows.get(String(p.id));
    if (!actual) out.missing.push(`Products:${p.id}`);
    else compareRecords('Products', String(p.id), actual, (h) => lookup(p, h, [], { cogs_: 'cogs' }), out);
    for (const v of (p.variants as Json[]) ?? []) {
      const va = variantRows.get(String(v.id));
      if (!va) out.missing.push(`Variants:${v.id}`);
      else
        compareRecords(
          'Variants',
          String(v.id),
          va,
          (h) => (h === 'product_id' ? p.id : h === 'sync_status' ? 'active' : lookup(v, h, [], { cogs_: 'cogs' })),
          out,
        );
    }
  }
  if (productRows.size !== products.length)
    out.unexpected.push(`Products: ${productRows.size} rows for ${products.length} products`);

  const dayRows = rowsByKey(table('Daily P&L'), 'date', 'Daily P&L', out);
  const dates = [...dayRows.keys()].sort();
  if (dates.length > 0) {
    const truthDays = (
      (await stack.control(`truth/daily?start_date=${dates[0]}&end_date=${today}`)) as { data: Json[] }
    ).data;
    for (const d of truthDays) {
      const actual = dayRows.get(String(d.date));
      if (!actual) out.missing.push(`Daily P&L:${d.date}`);
      else compareRecords('Daily P&L', String(d.date), actual, (h) => lookup(d, h, []), out);
    }
  }
  return out;
}

/**
 * How a suite's scheduled runs happen: called directly with the document (the demo, the script
 * editor), or fired by the schedule's trigger without the document (Google may run an add-on's
 * clock trigger either way: apps-script-facts.md).
 */
export type ScheduledRuns = 'direct' | 'trigger-without-document';
export const SCHEDULED_RUNS: ScheduledRuns[] = ['direct', 'trigger-without-document'];

/** The sidebar turns the hourly schedule on (once); returns its trigger's id. */
export async function scheduleTrigger(stack: Stack): Promise<string> {
  const mine = () => stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  if (!mine()) {
    const r = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    if (!r.ok) throw new Error(`setSchedule failed: ${r.error?.message}`);
  }
  const trigger = mine();
  if (!trigger) throw new Error('no schedule trigger');
  return trigger.uid;
}

/** One scheduled run, the way the suite's mode says. */
export async function scheduledRun(
  stack: Stack,
  mode: ScheduledRuns = 'direct',
  killAtServiceCall?: number,
): Promise<ExecutionResult> {
  if (mode === 'direct')
    return stack.runtime.run('onScheduledSync', [], killAtServiceCall === undefined ? {} : { killAtServiceCall });
  return stack.runtime.fireTrigger(await scheduleTrigger(stack), { document: false, killAtServiceCall });
}

/** Runs the scheduled sync job until it reports done (bounded), returning the executions used. */
export async function syncUntilCaughtUp(
  stack: Stack,
  maxExecutions = 20,
  handler = 'onScheduledSync',
  mode: ScheduledRuns = 'direct',
): Promise<number> {
  for (let n = 1; n <= maxExecutions; n++) {
    const r = handler === 'onScheduledSync' ? await scheduledRun(stack, mode) : await stack.runtime.run(handler, []);
    const value = r.value as { done?: boolean; outcome?: string; message?: string } | undefined;
    if (!r.ok && !r.timedOut) throw new Error(`${handler} failed: ${r.error?.message}`);
    if (r.ok && value?.outcome === 'error') throw new Error(`${handler} reported: ${value.message}`);
    if (r.ok && value?.done) return n;
  }
  throw new Error(`${handler} did not catch up in ${maxExecutions} executions`);
}

/**
 * Uses up the store's hourly API budget from another merchant user of the same store until `left`
 * requests remain, moving past the 60-a-minute burst window between rounds. Both clocks move: an
 * emulator clock left ahead of the runtime's has the truth in a store day the add-on has not reached
 * yet (it failed whenever the burn crossed midnight in the store's zone).
 */
export async function burnHourlyBudget(stack: Stack, storeId: string, left: number): Promise<void> {
  const { access_token: token } = (await stack.control('tokens', { store: storeId, user: 'burner@example.com' })) as {
    access_token: string;
  };
  let remaining = Infinity;
  while (remaining > left) {
    for (let i = 0; i < 55 && remaining > left; i++) {
      const res = await fetch(`${stack.apiUrl}/api/v1/stores`, { headers: { Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`burning the hourly budget: /stores answered ${res.status}`);
      remaining = Number(res.headers.get('RateLimit-Remaining'));
    }
    await stack.advanceClocks(61_000);
  }
}

/**
 * Orders changed in every way a sync meets (refund, cancellation, cost correction, partial refund),
 * nine new ones placed, and an hour passed.
 */
export async function changeOrdersEveryWay(stack: Stack): Promise<void> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter((o) => !o.canceled_at);
  for (const [i, kind] of ['refund', 'cancel', 'cost_correction', 'partial_refund'].entries())
    await stack.control(`orders/${String(orders[10 + i * 17].id)}/change`, { kind });
  await stack.control('orders', { count: 9 });
  await stack.advanceClocks(3_600_000);
}
