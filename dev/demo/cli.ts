/**
 * `npm run demo`: the scheduled sync of the built add-on (dist/) in the local runtime against the
 * emulator, run until caught up in as many executions as the budget needs; writes
 * out/workbook.xlsx and out/workbook.json and prints a summary. With --call NAME it runs one
 * custom-function execution instead and prints its result as JSON on the last line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../harness/index';
import type { ExecutionResult } from '../gas-runtime/index';
import { parseDemoArgs, toCellArgument, UsageError, type DemoArgs } from './args';

const MAX_EXECUTIONS = 200;

interface Totals {
  executions: number;
  requests: number;
  sheetsCalls: number;
  cellsWritten: number;
  modelledMs: number;
}

async function isConnected(stack: Stack): Promise<boolean> {
  const r = await stack.runtime.run('getSidebarState', []);
  const state = r.ok ? (r.value as { connection?: { state?: string } }).connection?.state : undefined;
  return state === 'connected';
}

async function runUntilDone(stack: Stack, handler: string, totals: Totals): Promise<string> {
  for (let n = 0; n < MAX_EXECUTIONS; n++) {
    const r: ExecutionResult = await stack.runtime.run(handler, []);
    totals.executions++;
    totals.requests += r.counts.requests.length;
    totals.sheetsCalls += r.counts.sheetsCalls;
    totals.cellsWritten += r.counts.cellsWritten;
    totals.modelledMs += r.counts.modelledMs;
    if (!r.ok && !r.timedOut) throw new Error(`${handler} failed: ${r.error?.message ?? 'unknown error'}`);
    const value = r.value as { done?: boolean; outcome?: string; message?: string } | undefined;
    if (value?.outcome === 'error') throw new Error(`${handler}: ${value.message ?? 'error'}`);
    if (r.ok && value?.done) return value.message ?? '';
  }
  throw new Error(`${handler} did not catch up in ${MAX_EXECUTIONS} executions`);
}

async function main(args: DemoArgs): Promise<void> {
  const stack = await startStack({
    ...(args.api ? { apiUrl: args.api } : { orders: args.orders, seed: args.seed }),
    ...(args.state ? { stateDir: path.resolve(args.state) } : {}),
  });
  try {
    if (!(await isConnected(stack))) await stack.connect();
    if (args.call) {
      const callArgs = args.args.map((a) => toCellArgument(a, stack.runtime.workbook.timeZone));
      const r = await stack.runtime.run(args.call, callArgs, { authMode: 'CUSTOM_FUNCTION' });
      await writeOutputs(stack, args);
      console.log(JSON.stringify(r.ok ? r.value : { error: r.error ?? { name: 'Error', message: 'execution failed' } }));
      return;
    }
    const totals: Totals = { executions: 0, requests: 0, sheetsCalls: 0, cellsWritten: 0, modelledMs: 0 };
    const message = await runUntilDone(stack, 'onScheduledSync', totals);
    if (args.reconcile) await runUntilDone(stack, 'reconcileOrdersNow', totals);
    await writeOutputs(stack, args);
    const sheets = stack.runtime.exportJson().sheets;
    const rows = (name: string): number => Math.max(0, (sheets[name]?.length ?? 1) - 1);
    console.log(message);
    console.log(
      [
        `orders: ${rows('Orders')}`,
        `line items: ${rows('Line items')}`,
        `products: ${rows('Products')}`,
        `days: ${rows('Daily P&L')}`,
        `executions: ${totals.executions}`,
        `requests: ${totals.requests}`,
        `Sheets calls: ${totals.sheetsCalls}`,
        `cells written: ${totals.cellsWritten}`,
        `modelled time: ${(totals.modelledMs / 1000).toFixed(1)} s`,
        `wrote ${path.join(args.out, 'workbook.xlsx')} and ${path.join(args.out, 'workbook.json')}`,
      ].join('\n'),
    );
  } finally {
    if (args.state) await stack.runtime.saveState(path.resolve(args.state));
    await stack.close();
  }
}

async function writeOutputs(stack: Stack, args: DemoArgs): Promise<void> {
  fs.mkdirSync(args.out, { recursive: true });
  fs.writeFileSync(path.join(args.out, 'workbook.json'), JSON.stringify(stack.runtime.exportJson()));
  await stack.runtime.exportXlsx(path.join(args.out, 'workbook.xlsx'));
}

let parsed: DemoArgs;
try {
  parsed = parseDemoArgs(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`demo: ${e.message}\nusage: npm run demo -- [--orders 5000] [--seed 1] [--api URL] [--state DIR] [--out DIR] [--reconcile] [--call NAME --args JSON]`);
    process.exit(2);
  }
  throw e;
}
main(parsed).catch((e: unknown) => {
  console.error(`demo: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
