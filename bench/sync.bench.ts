/**
 * Sync figures (counts are exact; time is the runtime's cost model, apps-script-cost-model.md):
 * a 10k and a 100k-order backfill, and an incremental run after 1 % of the orders changed.
 * Prints, never passes or fails on time. Usage: npx tsx bench/sync.bench.ts [--sizes 10000,100000]
 */
import { startStack, type Stack } from '../dev/harness/index';
import type { ExecutionResult } from '../dev/gas-runtime/index';

interface Figures {
  executions: number;
  requests: number;
  orderRequests: number;
  sheetsCalls: number;
  batchUpdates: number;
  cellsWritten: number;
  modelledMs: number;
  outcome: string;
}

async function syncToEnd(stack: Stack): Promise<Figures> {
  const f: Figures = { executions: 0, requests: 0, orderRequests: 0, sheetsCalls: 0, batchUpdates: 0, cellsWritten: 0, modelledMs: 0, outcome: '' };
  let errorsInRow = 0;
  for (let n = 0; n < 100; n++) {
    const r: ExecutionResult = await stack.runtime.run('onScheduledSync', []);
    f.executions++;
    f.requests += r.counts.requests.length;
    f.orderRequests += r.counts.requests.filter((q) => /\/api\/v1\/orders\?/.test(q.url)).length;
    f.sheetsCalls += r.counts.sheetsCalls;
    f.batchUpdates += r.counts.byMethod['Sheets.Spreadsheets.Values.batchUpdate'] ?? 0;
    f.cellsWritten += r.counts.cellsWritten;
    f.modelledMs += r.counts.modelledMs;
    const value = r.value as { done?: boolean; outcome?: string; message?: string } | undefined;
    f.outcome = r.ok ? `${value?.outcome}: ${value?.message ?? ''}` : `${r.timedOut ? 'time limit' : 'failed'}: ${r.error?.message ?? ''}`;
    if (r.ok && value?.outcome === 'error' && ++errorsInRow <= 3) {
      // e.g. the API's burst limit on the emulator's clock: the next scheduled run continues.
      await stack.advanceClocks(5 * 60_000);
      continue;
    }
    if (r.ok && value?.done) break;
    errorsInRow = 0;
  }
  return f;
}

function print(label: string, f: Figures): void {
  console.log(
    `${label.padEnd(34)} executions ${String(f.executions).padStart(3)} | requests ${String(f.requests).padStart(4)} (orders ${f.orderRequests}) | ` +
      `Sheets calls ${String(f.sheetsCalls).padStart(5)} (batchUpdate ${f.batchUpdates}) | cells written ${String(f.cellsWritten).padStart(9)} | ` +
      `modelled ${(f.modelledMs / 1000).toFixed(1)} s | ${f.outcome.slice(0, 90)}`,
  );
}

async function bench(orders: number): Promise<void> {
  const stack = await startStack({ orders, seed: 1 });
  try {
    await stack.connect();
    print(`backfill ${orders} orders`, await syncToEnd(stack));
    const truth = ((await stack.truth('orders')) as { data: Array<{ id: string }> }).data;
    const changed = Math.max(1, Math.round(truth.length / 100));
    for (let i = 0; i < changed; i++) {
      await stack.control(`orders/${truth[(i * 97) % truth.length].id}/change`, { kind: 'cost_correction' });
    }
    await stack.advanceClocks(3_600_000);
    print(`incremental, ${changed} changed (1 %)`, await syncToEnd(stack));
  } finally {
    await stack.close();
  }
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--sizes');
  const sizes = i >= 0 ? process.argv[i + 1].split(',').map(Number) : [10_000, 100_000];
  for (const size of sizes) await bench(size);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
