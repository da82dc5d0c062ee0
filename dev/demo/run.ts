/**
 * The demo's work: emulator (started here, or the one at --api) + the built add-on in the local
 * runtime, the connection made or repaired, then the scheduled sync until caught up (or one
 * custom-function call), outputs written and the runtime's stores saved for the next invocation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '../emulator/index';
import type { ExecutionResult } from '../gas-runtime/index';
import { startStack, type Stack } from '../harness/index';
import type { DemoArgs } from './args';
import { toCellArgument } from './args';
import { ensureConnection, type ConnectionOutcome } from './connection';
import { freshAnchor, readAnchor, startAnchoredEmulator, writeAnchor } from './emulator-anchor';

const MAX_EXECUTIONS = 200;

export interface DemoTotals {
  executions: number;
  requests: number;
  /** Requests to GET /api/v1/orders (list pages). */
  orderRequests: number;
  sheetsCalls: number;
  cellsWritten: number;
  modelledMs: number;
}

export interface DemoReport {
  connection: ConnectionOutcome;
  /** The sync's last message (empty for --call). */
  message: string;
  totals: DemoTotals;
  /** The --call or --run global's result (or {error}). */
  callResult?: unknown;
}

function tally(totals: DemoTotals, r: ExecutionResult): void {
  totals.executions++;
  totals.requests += r.counts.requests.length;
  totals.orderRequests += r.counts.requests.filter((q) => /\/api\/v1\/orders\?/.test(q.url)).length;
  totals.sheetsCalls += r.counts.sheetsCalls;
  totals.cellsWritten += r.counts.cellsWritten;
  totals.modelledMs += r.counts.modelledMs;
}

async function runUntilDone(stack: Stack, handler: string, totals: DemoTotals): Promise<string> {
  for (let n = 0; n < MAX_EXECUTIONS; n++) {
    const r = await stack.runtime.run(handler, []);
    tally(totals, r);
    if (!r.ok && !r.timedOut) throw new Error(`${handler} failed: ${r.error?.message ?? 'unknown error'}`);
    const value = r.value as { done?: boolean; outcome?: string; message?: string } | undefined;
    if (value?.outcome === 'error') throw new Error(`${handler}: ${value.message ?? 'error'}`);
    if (r.ok && value?.done) return value.message ?? '';
  }
  throw new Error(`${handler} did not catch up in ${MAX_EXECUTIONS} executions`);
}

/** Without --api: an emulator on the same data as the spreadsheet in --state DIR (or fresh data). */
async function ownEmulator(args: DemoArgs, log: (line: string) => void): Promise<RunningEmulator> {
  const stateDir = args.state ? path.resolve(args.state) : null;
  const saved = stateDir ? readAnchor(stateDir) : null;
  if (saved && (saved.seed !== args.seed || saved.orders !== args.orders)) {
    log(
      `the spreadsheet in ${args.state} was synced from emulator data --seed ${saved.seed} --orders ${saved.orders}: using those`,
    );
  }
  const anchor = saved ?? freshAnchor(args.seed, args.orders);
  if (stateDir && !saved) writeAnchor(stateDir, anchor);
  return startAnchoredEmulator(anchor);
}

/** Runs one demo invocation; the emulator and runtime it started are closed and --state is saved whatever happens. */
export async function runDemo(args: DemoArgs, log: (line: string) => void = console.log): Promise<DemoReport> {
  const emulator = args.api ? null : await ownEmulator(args, log);
  let stack: Stack | null = null;
  try {
    stack = await startStack({
      apiUrl: args.api ?? emulator!.url,
      ...(args.state ? { stateDir: path.resolve(args.state) } : {}),
    });
    const connection = await ensureConnection(stack);
    log(connection);
    const totals: DemoTotals = {
      executions: 0,
      requests: 0,
      orderRequests: 0,
      sheetsCalls: 0,
      cellsWritten: 0,
      modelledMs: 0,
    };
    if (args.call) {
      const callArgs = args.args.map((a) => toCellArgument(a, stack!.runtime.workbook.timeZone));
      const r = await stack.runtime.run(args.call, callArgs, { authMode: 'CUSTOM_FUNCTION' });
      tally(totals, r);
      await writeOutputs(stack, args);
      const callResult = r.ok ? r.value : { error: r.error ?? { name: 'Error', message: 'execution failed' } };
      log(JSON.stringify(callResult));
      return { connection, message: '', totals, callResult };
    }
    const message = await runUntilDone(stack, 'onScheduledSync', totals);
    if (args.reconcile) await runUntilDone(stack, 'reconcileOrdersNow', totals);
    let runResult: unknown;
    if (args.run) {
      const r = await stack.runtime.run(args.run, args.args, { authMode: 'FULL' });
      tally(totals, r);
      runResult = r.ok ? r.value : { error: r.error ?? { name: 'Error', message: 'execution failed' } };
    }
    await writeOutputs(stack, args);
    log(message);
    log(summaryLines(stack, args, totals).join('\n'));
    if (args.run) {
      log(JSON.stringify(runResult ?? null));
      return { connection, message, totals, callResult: runResult };
    }
    return { connection, message, totals };
  } finally {
    if (stack) {
      if (args.state) await stack.runtime.saveState(path.resolve(args.state));
      await stack.close();
    }
    if (emulator) await emulator.close();
  }
}

function summaryLines(stack: Stack, args: DemoArgs, totals: DemoTotals): string[] {
  const sheets = stack.runtime.exportJson().sheets;
  const rows = (name: string): number => Math.max(0, (sheets[name]?.length ?? 1) - 1);
  return [
    `orders: ${rows('Orders')}`,
    `line items: ${rows('Line items')}`,
    `products: ${rows('Products')}`,
    `days: ${rows('Daily P&L')}`,
    `executions: ${totals.executions}`,
    `requests: ${totals.requests} (order pages: ${totals.orderRequests})`,
    `Sheets calls: ${totals.sheetsCalls}`,
    `cells written: ${totals.cellsWritten}`,
    `modelled time: ${(totals.modelledMs / 1000).toFixed(1)} s`,
    `wrote ${path.join(args.out, 'workbook.xlsx')} and ${path.join(args.out, 'workbook.json')}`,
  ];
}

async function writeOutputs(stack: Stack, args: DemoArgs): Promise<void> {
  fs.mkdirSync(args.out, { recursive: true });
  fs.writeFileSync(path.join(args.out, 'workbook.json'), JSON.stringify(stack.runtime.exportJson()));
  await stack.runtime.exportXlsx(path.join(args.out, 'workbook.xlsx'));
}
