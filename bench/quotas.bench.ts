/**
 * The quotas that end real syncs, on the strict runtime (dev/gas-runtime/quotas.ts):
 * 1. a large backfill through the sidebar (startSync, then runSyncStep until done, as the sidebar
 *    does): Sheets API writes per minute (max, per user, on the runtime clock), refusals the
 *    add-on absorbed, quota errors that reached the user (must be 0), sheets vs the emulator's truth;
 * 2. a day of an hourly schedule fired by its trigger, with new orders every hour: trigger minutes
 *    per day (Google allows 90).
 * Prints figures and merges them into bench/results.json; never passes or fails on time.
 * Usage: npx tsx bench/quotas.bench.ts [--orders 100000] [--hourly-orders 40]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '../dev/harness/index';
import { compareWithTruth } from '../test/integration/sync-support';

const USER = 'user@example.com';
const RESULTS = path.join(__dirname, 'results.json');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

interface StepReply {
  done?: boolean;
  phase?: string;
  problem?: { message?: string } | null;
}

async function sidebarBackfill(stack: Stack): Promise<Record<string, number | string>> {
  const started = stack.runtime.clock.now();
  let steps = 0;
  let quotaErrorsShown = 0;
  let problems = 0;
  let reply = (await stack.runtime.run('startSync', [])).value as StepReply;
  for (; steps < 2_000 && !reply.done; steps++) {
    const r = await stack.runtime.run('runSyncStep', []);
    if (!r.ok) throw new Error(`runSyncStep failed: ${r.error?.message}`);
    reply = r.value as StepReply;
    const shown = `${reply.phase ?? ''} ${reply.problem?.message ?? ''}`;
    if (/Quota exceeded|429/.test(shown)) quotaErrorsShown++;
    if (reply.problem) problems++;
  }
  const comparison = await compareWithTruth(stack);
  const peak = stack.runtime.quotas.peakPerMinute(USER);
  return {
    sidebar_steps: steps,
    done: reply.done ? 1 : 0,
    last_phase: reply.phase ?? '',
    problems_shown: problems,
    sheets_quota_errors_reaching_user: quotaErrorsShown,
    sheets_quota_refusals_absorbed: stack.runtime.totals.quotaRefusals,
    sheets_writes_per_minute_max: peak.write,
    sheets_reads_per_minute_max: peak.read,
    sheets_api_writes: stack.runtime.totals.sheetsApiWrites,
    sheets_api_reads: stack.runtime.totals.sheetsApiReads,
    runtime_minutes: Math.round((stack.runtime.clock.now() - started) / 600) / 100,
    truth_mismatches: comparison.mismatches.length,
    truth_missing: comparison.missing.length,
    truth_unexpected: comparison.unexpected.length + comparison.duplicates.length,
  };
}

async function hourlyDay(stack: Stack, ordersPerHour: number): Promise<Record<string, number | string>> {
  const view = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
  if (!view.ok) throw new Error(`setSchedule failed: ${view.error?.message}`);
  const trigger = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  if (!trigger) throw new Error('setSchedule made no trigger');
  let longestMs = 0;
  let failed = 0;
  let cutShort = 0;
  const before = stack.runtime.quotas.use(USER).triggerMsLast24h;
  for (let hour = 0; hour < 24; hour++) {
    await stack.control('orders', { count: ordersPerHour });
    await stack.advanceClocks(3_600_000);
    const r = await stack.runtime.fireTrigger(trigger.uid);
    longestMs = Math.max(longestMs, r.elapsedMs);
    const value = r.value as { outcome?: string; message?: string } | undefined;
    if (!r.ok || value?.outcome === 'error') failed++;
    if (value?.outcome === 'partial') cutShort++;
  }
  const use = stack.runtime.quotas.use(USER);
  return {
    hourly_runs: 24,
    orders_per_hour: ordersPerHour,
    trigger_minutes_per_day: Math.round((use.triggerMsLast24h - before) / 600) / 100,
    trigger_allowance_minutes: use.triggerAllowanceMs / 60_000,
    longest_run_seconds: Math.round(longestMs / 100) / 10,
    runs_failed: failed,
    runs_cut_short: cutShort,
  };
}

async function main(): Promise<void> {
  const orders = arg('--orders', 100_000);
  const ordersPerHour = arg('--hourly-orders', 40);
  const stack = await startStack({ orders, seed: 1 });
  let figures: Record<string, number | string> = {};
  try {
    await stack.connect();
    const backfill = await sidebarBackfill(stack);
    console.log(`sidebar backfill of ${orders} orders:`, backfill);
    const day = await hourlyDay(stack, ordersPerHour);
    console.log(`a day of an hourly schedule (${ordersPerHour} new orders an hour):`, day);
    figures = { orders, ...backfill, ...day };
  } finally {
    await stack.close();
  }
  const results = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { machine?: unknown; workloads?: Record<string, unknown> }) : {};
  results.machine ??= { cpus: os.cpus().length, node: process.version, platform: process.platform };
  results.workloads = { ...(results.workloads ?? {}), [`quotas_${orders}`]: { figures, lower_bound: { sheets_quota_errors_reaching_user: 0, truth_mismatches: 0 }, alternatives: {} } };
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
