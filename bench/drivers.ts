/**
 * How each approach runs a workload on the runtime, execution by execution, as Apps Script would
 * run it: the add-on through its sidebar steps, its hourly trigger and its reconciliation; the
 * alternatives by calling their function again while it says it is not done.
 */
import type { ExecutionResult } from '../dev/gas-runtime/index';
import type { Stack } from '../dev/harness/index';

export const USER = 'user@example.com';
const HOUR_MS = 3_600_000;

export interface Run {
  results: ExecutionResult[];
  done: boolean;
  /** The last answer's message or error, for the printed notes. */
  note: string;
  sheetsWritesPerMinuteMax: number;
}

/** Runs `step` until it reports done (or `limit` executions), measuring the quota ledger's peak apart. */
async function measure(
  stack: Stack,
  limit: number,
  step: (i: number) => Promise<{ result: ExecutionResult; done: boolean; note: string }>,
): Promise<Run> {
  stack.runtime.quotas.resetPeakPerMinute(USER);
  const results: ExecutionResult[] = [];
  let done = false;
  let note = '';
  for (let i = 0; i < limit && !done; i++) {
    const s = await step(i);
    results.push(s.result);
    done = s.done;
    note = s.note;
  }
  return { results, done, note, sheetsWritesPerMinuteMax: stack.runtime.quotas.peakPerMinute(USER).write };
}

function failure(result: ExecutionResult): string {
  return `${result.timedOut ? 'time limit' : 'failed'}: ${result.error?.message ?? ''}`;
}

/** "Sync now" in the sidebar, as its page calls it: runSyncStep({start: true}), then runSyncStep until caught up. */
export function sidebarSync(stack: Stack): Promise<Run> {
  return measure(stack, 2_000, async (i) => {
    const result = await stack.runtime.run('runSyncStep', i === 0 ? [{ start: true }] : []);
    if (!result.ok) throw new Error(`sidebar step ${failure(result)}`);
    const reply = result.value as { done?: boolean; phase?: string; problem?: { userMessage?: string } | null };
    if (reply.done && reply.problem) throw new Error(`sidebar sync stopped: ${reply.problem.userMessage ?? ''}`);
    return { result, done: reply.done === true, note: reply.phase ?? '' };
  });
}

export async function ensureHourlySchedule(stack: Stack): Promise<string> {
  const existing = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  if (existing) return existing.uid;
  const view = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
  if (!view.ok) throw new Error(`setSchedule ${failure(view)}`);
  const trigger = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  if (!trigger) throw new Error('setSchedule made no trigger');
  return trigger.uid;
}

/** The hourly trigger fires until the run is caught up; a run cut short continues at the next hour. */
export function hourlyTrigger(stack: Stack, triggerUid: string): Promise<Run> {
  return measure(stack, 24, async (i) => {
    if (i > 0) await stack.advanceClocks(HOUR_MS);
    const result = await stack.runtime.fireTrigger(triggerUid);
    if (!result.ok) return { result, done: false, note: failure(result) };
    const value = result.value as { done?: boolean; outcome?: string; message?: string };
    if (value.outcome === 'error') throw new Error(`hourly run failed: ${value.message ?? ''}`);
    return { result, done: value.done === true, note: `${value.outcome}: ${value.message ?? ''}` };
  });
}

/** The monthly reconciliation pass (menu/sidebar), called again while not done. */
export function reconciliation(stack: Stack): Promise<Run> {
  return measure(stack, 200, async () => {
    const result = await stack.runtime.run('reconcileOrdersNow', []);
    if (!result.ok) throw new Error(`reconcileOrdersNow ${failure(result)}`);
    const value = result.value as { done?: boolean; outcome?: string; message?: string };
    if (value.outcome === 'error') throw new Error(`reconciliation failed: ${value.message ?? ''}`);
    return { result, done: value.done === true, note: `${value.outcome}: ${value.message ?? ''}` };
  });
}

/**
 * An alternative script: run its function again while it says it is not done. An execution the
 * 6-minute limit ends is what such a script meets: it is counted and the next one continues from
 * what the last finished page saved; after 40 executions the approach is reported unfinished.
 */
export function alternative(stack: Stack, functionName: string): Promise<Run> {
  let killed = 0;
  return measure(stack, 40, async () => {
    const result = await stack.runtime.run(functionName, []);
    if (result.timedOut) killed++;
    else if (!result.ok) throw new Error(`${functionName} ${failure(result)}`);
    const value = result.ok ? (result.value as { done: boolean; pages: number; waits: number }) : null;
    const note = value ? `${value.pages} pages, ${value.waits} waits for Retry-After` : failure(result);
    return {
      result,
      done: value?.done === true,
      note: killed ? `${note}; ${killed} executions ended by the time limit` : note,
    };
  });
}

/** A custom function's argument as Sheets passes it: a value, or a range as a 2-D array. */
export type FormulaArg = string | string[][];

export interface FormulaCell {
  fn: 'PROFIT_SUMMARY' | 'PROFIT_DAILY' | 'PROFIT_MONTHLY';
  args: FormulaArg[];
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The report's 12 argument sets: 4 periods each for PROFIT_SUMMARY, PROFIT_DAILY and PROFIT_MONTHLY. */
export function reportPeriods(today: string): Record<FormulaCell['fn'], Array<[string, string]>> {
  const r = (a: number, b: number): [string, string] => [addDays(today, a), addDays(today, b)];
  return {
    PROFIT_SUMMARY: [r(-60, -31), r(-90, -61), r(-30, -1), r(-120, -91)],
    PROFIT_DAILY: [r(-14, -1), r(-28, -15), r(-45, -29), r(-200, -170)],
    PROFIT_MONTHLY: [r(-100, -1), r(-365, -1), r(-150, -50), r(-250, -200)],
  };
}

/**
 * 200 cells over the 12 argument sets, each cell its own custom-function call: the per-cell
 * workload the formula bench measures (formulas_200_cells). The week's report is the same figures
 * built as the custom functions guide advises (bench/finance-report.ts).
 */
export function reportCells(today: string): FormulaCell[] {
  const periods = reportPeriods(today);
  const sets = (Object.keys(periods) as Array<FormulaCell['fn']>).flatMap((fn) =>
    periods[fn].map((range) => ({ fn, range })),
  );
  const summaryMetrics = ['net_profit', 'CM3', 'net_revenue', 'cm1', undefined];
  const listMetrics = [undefined, 'net_profit, cm3', 'net_revenue'];
  return Array.from({ length: 200 }, (_, i) => {
    const set = sets[i % sets.length];
    const metric =
      set.fn === 'PROFIT_SUMMARY' ? summaryMetrics[i % summaryMetrics.length] : listMetrics[i % listMetrics.length];
    return { fn: set.fn, args: metric === undefined ? [...set.range] : [...set.range, metric] };
  });
}

/** Custom-function cells run at once by default: Google does not say how many Sheets starts together. */
export const RECALC_CELLS_AT_ONCE = 20;

/**
 * Sheets recalculates the cells at once, each its own custom-function execution; Google does not
 * say how many run in parallel: RECALC_CELLS_AT_ONCE at a time here (as test/integration/functions-recalc.test.ts).
 */
export async function recalculation(
  stack: Stack,
  cells: FormulaCell[],
  concurrency = RECALC_CELLS_AT_ONCE,
): Promise<Run & { failed: number }> {
  stack.runtime.quotas.resetPeakPerMinute(USER);
  const results: ExecutionResult[] = new Array(cells.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < cells.length) {
      const i = next++;
      results[i] = await stack.runtime.run(cells[i].fn, cells[i].args, { authMode: 'CUSTOM_FUNCTION' });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  // A cell that fails is a figure (cells_failed), not the end of the run: Sheets shows it as #ERROR!.
  const failed = results.filter((r) => !r.ok).length;
  return {
    results,
    done: failed === 0,
    note: failed ? `${failed} cells failed: ${results.find((r) => !r.ok)?.error?.message}` : 'every cell answered',
    failed,
    sheetsWritesPerMinuteMax: stack.runtime.quotas.peakPerMinute(USER).write,
  };
}
