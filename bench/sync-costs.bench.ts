/**
 * What a sync costs on Apps Script, beside the obvious alternatives and the limits.
 * One run, same seed, on the strict runtime (Google's quotas on) with the runtime clock moving by
 * modelled time only and the emulator's clock in step with it:
 *   backfill_<N>        "Sync now" in the sidebar on a store of N orders (1k, 10k, 100k);
 *   hourly_1pct_<N>     the hourly trigger after 1 % of the orders changed;
 *   reconcile_<N>       the monthly reconciliation pass (every order paged again);
 *   formulas_200_cells  200 custom-function cells over 12 argument sets recalculated at once.
 * Alternatives (a) refresh-all and (b) row-by-row (bench/alternatives) run the backfill and the
 * hourly workloads against the same emulator data and connection, each in its own workbook.
 * Writes bench/results.json; never passes or fails on time.
 * Usage: npx tsx bench/sync-costs.bench.ts [--sizes 1000,10000,100000] [--no-alternatives] [--out FILE]
 *   [--workloads backfill,hourly_1pct,reconcile,formulas] (default all; the backfill always runs: the others start from it)
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from '../dev/harness/index';
import { compareWithTruth } from '../test/integration/sync-support';
import { writeBenchBundle } from './bundle';
import {
  alternative,
  ensureHourlySchedule,
  hourlyTrigger,
  reconciliation,
  recalculation,
  reportCells,
  sidebarSync,
  type Run,
} from './drivers';
import { figuresOf, type Figures } from './figures';
import { lowerBound, type BoundInput } from './lower-bound';
import { BENCH_NOW, startBenchStack } from './stack';
import { scaledPayload, writePayload, type WritePayload } from './write-payload';
import {
  alternativesTable,
  oursRatio,
  ratioTable,
  ratioToOurs,
  workloadTable,
  writeResults,
  type AlternativeEntry,
  type Results,
  type WorkloadEntry,
} from './report';

const HOUR_MS = 3_600_000;
const DATA_SHEETS = ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L'];
const ALTERNATIVES: Record<string, { fn: string; ordersSheet: string }> = {
  a_refresh_all: { fn: 'altRefreshAll', ordersSheet: 'A Orders' },
  b_row_by_row: { fn: 'altRowByRow', ordersSheet: 'B Orders' },
};

/** Every workload; `--workloads` names a subset (the backfill always runs). */
const WORKLOADS = ['backfill', 'hourly_1pct', 'reconcile', 'formulas'] as const;
type Workload = (typeof WORKLOADS)[number];

function chosenWorkloads(): ReadonlySet<Workload> {
  const named = (option('--workloads') ?? WORKLOADS.join(',')).split(',');
  const unknown = named.filter((w) => !(WORKLOADS as readonly string[]).includes(w));
  if (unknown.length > 0) throw new Error(`--workloads: unknown ${unknown.join(', ')}; known: ${WORKLOADS.join(', ')}`);
  return new Set<Workload>(['backfill', ...(named as Workload[])]);
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

type Json = Record<string, unknown>;
interface Order {
  id: string;
  created_at: string;
  line_items: unknown[];
}

interface StoreTruth {
  orders: Order[];
  products: number;
  variants: number;
  timeZone: string;
  today: string;
}

async function storeTruth(stack: Stack): Promise<StoreTruth> {
  const orders = ((await stack.truth('orders')) as { data: Order[] }).data;
  const products = ((await stack.truth('products')) as { data: Array<{ variants?: unknown[] }> }).data;
  const store = (await stack.truth('store')) as { store: { timezone: string }; today: string };
  return {
    orders,
    products: products.length,
    variants: products.reduce((s, p) => s + (p.variants?.length ?? 0), 0),
    timeZone: store.store.timezone,
    today: store.today,
  };
}

type SheetModel = Parameters<typeof writePayload>[0][number];

/** The data sheets' cells as the backfill left them, in the Sheets API's request forms (all made by it). */
function backfillPayload(stack: Stack): WritePayload {
  const workbook = stack.runtime.workbook as unknown as { sheetByName(n: string): SheetModel | undefined };
  const sheets = DATA_SHEETS.map((name) => workbook.sheetByName(name)).filter((s): s is SheetModel => s !== undefined);
  return writePayload(sheets, true);
}

function sheetSize(stack: Stack, name: string): { rows: number; columns: number } {
  const sheet = (
    stack.runtime.workbook as unknown as {
      sheetByName(n: string): { lastRow(): number; lastColumn(): number } | undefined;
    }
  ).sheetByName(name);
  return sheet ? { rows: sheet.lastRow(), columns: sheet.lastColumn() } : { rows: 0, columns: 0 };
}

/** Cells, rows and duplicates of the five data sheets that differ from /_emulator/truth/* (0 = equal). */
async function truthMismatches(stack: Stack): Promise<number> {
  const c = await compareWithTruth(stack);
  return c.mismatches.length + c.missing.length + c.unexpected.length + c.duplicates.length;
}

function dayOf(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleDateString('en-CA', { timeZone });
}

function entry(run: Run, orders: number, bound: BoundInput, extra: Json = {}): WorkloadEntry {
  const figures = {
    ...figuresOf({ results: run.results, sheetsWritesPerMinuteMax: run.sheetsWritesPerMinuteMax, orders }),
    done: run.done,
    note: run.note,
    ...extra,
  };
  const lb = lowerBound(bound);
  return { figures, lower_bound: { ...lb, ours_ratio: oursRatio(figures, lb) }, alternatives: {} };
}

function alternativeEntry(run: Run, orders: number, ours: Figures, extra: Json): AlternativeEntry {
  const figures = figuresOf({ results: run.results, sheetsWritesPerMinuteMax: run.sheetsWritesPerMinuteMax, orders });
  return { ...figures, ...extra, done: run.done, note: run.note, ratio_to_ours: ratioToOurs(figures, ours) };
}

/** Runs each alternative in its own workbook (kept between its backfill and its hourly run). */
class Contestants {
  private readonly workbooks = new Map<string, unknown>();
  constructor(private readonly stack: Stack) {}

  async run(name: string, orders: number, ours: Figures): Promise<AlternativeEntry> {
    const { fn, ordersSheet } = ALTERNATIVES[name];
    const previous = this.stack.runtime.replaceWorkbook(this.workbooks.get(name) as never);
    try {
      phase(`alternative ${name}`);
      const run = await alternative(this.stack, fn);
      this.workbooks.set(name, this.stack.runtime.workbook);
      const rows = sheetSize(this.stack, ordersSheet).rows - 1;
      return alternativeEntry(run, orders, ours, { order_rows_in_sheet: rows });
    } finally {
      this.stack.runtime.replaceWorkbook(previous as never);
      await this.stack.advanceClocks(HOUR_MS);
    }
  }
}

/**
 * Keeps a workload's figures and prints them; an hour later each alternative (none when
 * `contestants` is null) runs the same workload in its own workbook, its figures kept beside ours.
 */
async function recordWorkload(
  stack: Stack,
  results: Results,
  name: string,
  workload: WorkloadEntry,
  orders: number,
  contestants: Contestants | null,
): Promise<void> {
  results.workloads[name] = workload;
  report(name, workload);
  await stack.advanceClocks(HOUR_MS);
  if (!contestants) return;
  for (const alternativeName of Object.keys(ALTERNATIVES)) {
    workload.alternatives[alternativeName] = await contestants.run(alternativeName, orders, workload.figures);
    report(`${name} ${alternativeName}`, workload.alternatives[alternativeName]);
  }
}

async function benchStore(
  size: number,
  results: Results,
  withAlternatives: boolean,
  withFormulas: boolean,
  bundleDir: string,
  workloads: ReadonlySet<Workload>,
): Promise<void> {
  const started = Date.now();
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  phase(`${label}: starting the emulator and connecting`);
  const bench = await startBenchStack(size, bundleDir);
  const stack = bench.stack;
  results.machine.oauth2_library ??= path.relative(
    path.resolve(__dirname, '..'),
    stack.runtime.libraryFiles.OAuth2 ?? 'none',
  );
  try {
    phase(`${label}: connected`);
    const truth = await storeTruth(stack);
    const contestants = new Contestants(stack);

    // Backfill through the sidebar, then every data sheet against the emulator's truth.
    phase(`${label}: backfill`);
    const backfill = await sidebarSync(stack);
    phase(`${label}: comparing with the truth`);
    const comparison = await truthMismatches(stack);
    const sizes = Object.fromEntries(DATA_SHEETS.map((s) => [s, sheetSize(stack, s)]));
    const dataCells = Object.values(sizes).reduce((sum, s) => sum + s.rows * s.columns, 0);
    const payload = backfillPayload(stack);
    const backfillEntry = entry(
      backfill,
      size,
      {
        records: size,
        fixedRequests: {
          account: 1,
          products_pages: Math.ceil(truth.products / 250),
          daily_pnl_pages: Math.ceil((sizes['Daily P&L'].rows - 1) / 400),
        },
        cells: dataCells,
        ranges: DATA_SHEETS.length,
        keyRows: 0,
        payload,
      },
      { truth_mismatches: comparison, write_payload_bytes: payload.valuesBytes },
    );
    await recordWorkload(
      stack,
      results,
      `backfill_${label}`,
      backfillEntry,
      size,
      withAlternatives ? contestants : null,
    );

    const uid = await ensureHourlySchedule(stack);
    if (workloads.has('hourly_1pct'))
      await benchHourly(
        stack,
        size,
        label,
        uid,
        truth,
        { sizes, payload, dataCells },
        results,
        withAlternatives,
        contestants,
      );
    if (workloads.has('reconcile')) await benchReconcile(stack, size, label, sizes, results);
    if (withFormulas && workloads.has('formulas')) await benchFormulas(stack, label, uid, truth, results);
  } finally {
    await bench.close();
    (results.machine.wall_seconds as Record<string, number>)[label] = Math.round((Date.now() - started) / 1000);
  }
}

/** 1 % of the orders change during the hour (cost corrections spread over the store and the hour, so their change markers differ as real ones do), then the hourly run. */
async function benchHourly(
  stack: Stack,
  size: number,
  label: string,
  uid: string,
  truth: StoreTruth,
  sheets: { sizes: Record<string, { rows: number; columns: number }>; payload: WritePayload; dataCells: number },
  results: Results,
  withAlternatives: boolean,
  contestants: Contestants,
): Promise<void> {
  const sizes = sheets.sizes;
  phase(`${label}: 1 % of the orders change`);
  const changedCount = Math.max(1, Math.round(size / 100));
  const changed = Array.from({ length: changedCount }, (_, i) => truth.orders[(i * 97) % truth.orders.length]);
  for (const order of changed) {
    await stack.control(`orders/${order.id}/change`, { kind: 'cost_correction' });
    await stack.advanceClocks(Math.floor(HOUR_MS / changedCount));
  }
  phase(`${label}: hourly run`);
  const hourly = await hourlyTrigger(stack, uid);
  const changedItems = changed.reduce((s, o) => s + o.line_items.length, 0);
  const days = new Set(changed.map((o) => dayOf(o.created_at, truth.timeZone))).size;
  const hourlyCells =
    changedCount * sizes.Orders.columns +
    changedItems * sizes['Line items'].columns +
    days * sizes['Daily P&L'].columns;
  phase(`${label}: comparing with the truth`);
  const hourlyTruth = await truthMismatches(stack);
  const hourlyFigures = figuresOf({
    results: hourly.results,
    sheetsWritesPerMinuteMax: hourly.sheetsWritesPerMinuteMax,
    orders: size,
  });
  const hourlyEntry = entry(
    hourly,
    size,
    {
      records: changedCount,
      fixedRequests: { account: 1, products_changes: 1, daily_pnl_window: 1 },
      cells: hourlyCells,
      ranges: changedCount + changedItems + days,
      keyRows: sizes.Orders.rows + sizes['Line items'].rows,
      payload: scaledPayload(sheets.payload, sheets.dataCells, hourlyCells),
    },
    {
      changed_orders: changedCount,
      truth_mismatches: hourlyTruth,
      trigger_minutes_per_day: Math.round(((24 * hourlyFigures.modelled_seconds) / 60) * 10) / 10,
    },
  );
  await recordWorkload(
    stack,
    results,
    `hourly_1pct_${label}`,
    hourlyEntry,
    size,
    withAlternatives ? contestants : null,
  );
}

/** The monthly reconciliation pass: every order paged again, nothing vanished. */
async function benchReconcile(
  stack: Stack,
  size: number,
  label: string,
  sizes: Record<string, { rows: number; columns: number }>,
  results: Results,
): Promise<void> {
  phase(`${label}: reconciliation`);
  const reconcile = await reconciliation(stack);
  phase(`${label}: comparing with the truth`);
  const reconcileTruth = await truthMismatches(stack);
  const reconcileEntry = entry(
    reconcile,
    size,
    { records: size, fixedRequests: { account: 1 }, cells: 0, ranges: 0, keyRows: sizes.Orders.rows },
    { truth_mismatches: reconcileTruth },
  );
  results.workloads[`reconcile_${label}`] = reconcileEntry;
  report(`reconcile_${label}`, reconcileEntry);
}

async function benchFormulas(
  stack: Stack,
  label: string,
  uid: string,
  truth: StoreTruth,
  results: Results,
): Promise<void> {
  // The next hourly run renews the token the formulas read (custom functions never refresh).
  await stack.advanceClocks(HOUR_MS);
  await stack.runtime.fireTrigger(uid);
  phase(`${label}: 200 formula cells`);
  const recalc = await recalculation(stack, reportCells(truth.today));
  const longest = Math.max(...recalc.results.map((r) => r.elapsedMs));
  const formulasEntry = entry(
    recalc,
    0,
    {
      records: 0,
      fixedRequests: { one_per_argument_set: 12 },
      cells: 0,
      ranges: 0,
      keyRows: 0,
      minExecutions: 200,
      cacheReads: 188,
      // A cell is no run: no lock, no checkpoint; the 12 that fetch read the token.
      cellsOnly: { tokenReads: 12 },
    },
    { cells_failed: recalc.failed, longest_cell_seconds: Math.round(longest / 100) / 10 },
  );
  results.workloads.formulas_200_cells = formulasEntry;
  report('formulas_200_cells', formulasEntry);
}

let saveProgress: () => void = () => undefined;
const benchStarted = Date.now();

/** Progress on stderr (wall time since the start, for whoever watches the run; not a figure). */
function phase(text: string): void {
  process.stderr.write(`[bench ${Math.round((Date.now() - benchStarted) / 1000)} s] ${text}\n`);
}

function report(name: string, e: WorkloadEntry | AlternativeEntry): void {
  saveProgress();
  const f = 'figures' in e ? e.figures : e;
  console.log(
    `${name.padEnd(34)} executions ${f.executions} | API ${f.api_requests} (429s ${f.api_429s}) | Sheets calls ${f.sheets_calls} | cells ${f.cells_written} | ` +
      `modelled ${f.modelled_seconds} s | JS ${f.time_split_seconds.javascript} s | heap ${f.peak_heap_mb} MB`,
  );
}

async function main(): Promise<void> {
  // The emulator runs in this process: a synchronous stretch longer than its 65 s idle-connection
  // timeout (comparing 100k rows with the truth) lets the next control call take a pooled socket
  // the server closes in the same tick (read ECONNRESET). One connection per request avoids it.
  http.globalAgent = new http.Agent({ keepAlive: false });
  const sizes = (option('--sizes') ?? '1000,10000,100000').split(',').map(Number);
  const withAlternatives = !process.argv.includes('--no-alternatives');
  const workloads = chosenWorkloads();
  const out = option('--out') ?? path.join(__dirname, 'results.json');
  const bundleDir = writeBenchBundle();
  const results: Results = {
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      memory_gb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      platform: `${process.platform} ${os.release()}`,
      seed: 1,
      emulator_now: new Date(BENCH_NOW).toISOString(),
      command: `node --max-old-space-size=12288 --import tsx bench/sync-costs.bench.ts --sizes ${sizes.join(',')}${withAlternatives ? '' : ' --no-alternatives'}`,
      started_at: new Date().toISOString(),
      wall_seconds: {},
    },
    workloads: {},
  };
  // Written after every workload too: a run that fails later keeps what it measured.
  saveProgress = () => writeResults(out, results);
  for (const size of sizes)
    await benchStore(size, results, withAlternatives, size === Math.max(...sizes), bundleDir, workloads);
  writeResults(out, results);
  console.log(
    `\n${workloadTable(results)}\n\nOur sync over its lower bound:\n\n${ratioTable(results)}\n\nSide by side:\n\n${alternativesTable(results)}\n\nwrote ${out}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
