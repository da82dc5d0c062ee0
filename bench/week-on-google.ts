/**
 * A week on Google, on the strict runtime and modelled time: what the add-on's first week costs
 * against every quota Google enforces, and whether the sheets still equal the store at its end.
 *
 * Two editors keep the sidebar open from 9:00 to 17:00 every day (it looks for changes as
 * src/sidebar/watch-cadence.ts schedules it); the spreadsheet syncs hourly from its trigger; a
 * report of 200 formula cells recalculates whenever a sync re-entered the add-on's formulas; the
 * store takes new orders and changes every hour. The report is built as Google's custom functions
 * guide advises (bench/finance-report.ts): 12 range formulas feeding 188 native cells. Once in the week the connection is renewed
 * (Disconnect, then Connect), and a second spreadsheet the owner scheduled is deleted while its
 * trigger still exists (the trigger must remove itself), and for five hours the owner withdraws the
 * add-on's permission to reach the API (granular consent) before granting it again.
 */
import { SIMULTANEOUS_EXECUTIONS_PER_USER, type ExecutionResult } from '../dev/gas-runtime/index';
import type { Stack } from '../dev/harness/index';
import { nextLookInMs } from '../src/sidebar/watch-cadence';
import { compareWithTruth } from '../test/integration/sync-support';
import { ensureHourlySchedule, USER } from './drivers';
import { financeReport, recalculateReport } from './finance-report';

export const EDITOR = 'editor@example.com';
const EDITORS = [USER, EDITOR];
const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;
const OPEN_FROM_HOUR = 9;
const OPEN_UNTIL_HOUR = 17;
/** Google's quotas (developers.google.com/apps-script/guides/services/quotas) and the API's (spec 4). */
const SHEETS_REQUESTS_PER_MINUTE = 60;
const API_REQUESTS_PER_HOUR = 1_000;
const SCHEDULED_HANDLER = 'onScheduledSync';
const EXTERNAL_REQUEST_SCOPE = 'https://www.googleapis.com/auth/script.external_request';

export interface WeekEvent {
  /** Hours since the week began (0 = day 1, 00:00 of the store's clock as the week starts). */
  atHour: number;
  what: string;
  run(stack: Stack): Promise<void>;
}

export interface WeekOptions {
  days: number;
  /** New orders the store takes each hour, and one change (refund, cost correction...) every `changeEveryHours`. */
  ordersPerHour: number;
  changeEveryHours: number;
  events?: WeekEvent[];
  /** Called with every line the week prints. */
  log?: (line: string) => void;
}

export interface QuotaPeak {
  quota: string;
  limit: string;
  peak: number;
  /** Peak use as a percentage of the limit. */
  pct: number;
}

export interface WeekReport {
  peaks: QuotaPeak[];
  quotaRefusals: number;
  /** formulas: the report's custom-function executions; reportCells: its native cells evaluated; failedFormulas: either failed. */
  executions: { trigger: number; sidebar: number; formulas: number; reportCells: number; failedFormulas: number };
  /** Messages of scheduled runs that did not end ok (a paused or failed run says why). */
  runProblems: string[];
  truthDifferences: number;
  /** The deleted spreadsheet's trigger: removed by itself (true) or still firing at the week's end. */
  goneTriggerRemoved: boolean;
}

class Peaks {
  private readonly max = new Map<string, { limit: number; peak: number }>();
  note(quota: string, limit: number, value: number): void {
    const seen = this.max.get(quota);
    if (!seen || value > seen.peak) this.max.set(quota, { limit, peak: value });
  }
  list(): QuotaPeak[] {
    return [...this.max].map(([quota, { limit, peak }]) => ({
      quota,
      limit: limit.toLocaleString('en-US'),
      peak,
      pct: Math.round((1_000 * peak) / limit) / 10,
    }));
  }
}

const isApiRequest = (url: string): boolean => /\/api\/v1\//.test(url);

export async function runWeek(stack: Stack, options: WeekOptions): Promise<WeekReport> {
  const log = options.log ?? (() => undefined);
  const peaks = new Peaks();
  const report: WeekReport = {
    peaks: [],
    quotaRefusals: 0,
    executions: { trigger: 0, sidebar: 0, formulas: 0, reportCells: 0, failedFormulas: 0 },
    runProblems: [],
    truthDifferences: 0,
    goneTriggerRemoved: false,
  };
  const apiByHour = new Map<number, number>();
  const weekStart = stack.runtime.clock.now();
  const hourOf = (): number => Math.floor((stack.runtime.clock.now() - weekStart) / HOUR_MS);

  /** Every execution passes here: the quota ledger's standing is read after each. */
  const observe = (results: ExecutionResult[]): void => {
    for (const r of results) {
      report.quotaRefusals += r.counts.quotaRefusals;
      const api = r.counts.requests.filter((q) => isApiRequest(q.url)).length;
      apiByHour.set(hourOf(), (apiByHour.get(hourOf()) ?? 0) + api);
    }
    for (const user of EDITORS) {
      const use = stack.runtime.quotas.use(user);
      peaks.note(`Properties reads and writes a day (${user})`, use.propertyCallAllowance, use.propertyCallsLast24h);
      peaks.note(`UrlFetch calls a day (${user})`, 20_000, use.urlFetchesLast24h);
      peaks.note(`Trigger run time a day (${user})`, use.triggerAllowanceMs, use.triggerMsLast24h);
    }
  };
  const execute = async (run: () => Promise<ExecutionResult>): Promise<ExecutionResult> => {
    const result = await run();
    observe([result]);
    return result;
  };

  const reportSheet = financeReport(new Date(weekStart).toISOString().slice(0, 10));
  await ensureHourlySchedule(stack);
  const copy = stack.runtime.makeCopy(USER);
  const copyConnected = await stack.connect({ spreadsheetId: copy });
  if (copyConnected.outcome !== 'connected') throw new Error(`the copy's connection: ${copyConnected.outcome}`);
  const scheduledCopy = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }], { spreadsheetId: copy });
  if (!scheduledCopy.ok) throw new Error(`the copy's schedule: ${scheduledCopy.error?.message}`);
  const events: WeekEvent[] = [
    {
      atHour: 24 + 11,
      what: 'the owner disconnects and connects again',
      run: async (s: Stack) => {
        const off = await execute(() => s.runtime.run('disconnectStore', []));
        if (!off.ok) throw new Error(`disconnectStore: ${off.error?.message}`);
        await s.connect();
      },
    },
    {
      atHour: 48 + 14,
      what: 'the owner deletes the second spreadsheet; its trigger still exists',
      run: async (s: Stack) => s.runtime.deleteDocument(copy),
    },
    {
      atHour: 72 + 10,
      what: "the owner withdraws the add-on's permission to connect to an external service",
      run: async (s: Stack) => s.runtime.consent.withdraw(USER, EXTERNAL_REQUEST_SCOPE),
    },
    {
      atHour: 72 + 15,
      what: 'the owner grants it again',
      run: async (s: Stack) => s.runtime.consent.grant(USER),
    },
    ...(options.events ?? []),
  ].filter((e) => e.atHour < options.days * DAY_HOURS);

  /** Where each editor's sidebar was between hours (its stamp, quiet time and next look). */
  const sidebarMemory = new Map<string, { nextAt: number; quietSince: number; stamp: unknown }>();
  let generation = stack.runtime.properties.document.get('ma.formulaGeneration');
  const recalculate = async (): Promise<void> => {
    stack.runtime.quotas.resetPeakPerMinute(USER);
    const recalc = await recalculateReport(stack, reportSheet);
    observe(recalc.results);
    report.executions.formulas += recalc.results.length;
    report.executions.reportCells += recalc.results.length + reportSheet.native.length;
    report.executions.failedFormulas += recalc.failed + recalc.nativeFailed;
    peaks.note('Sheets API writes a minute (owner)', SHEETS_REQUESTS_PER_MINUTE, recalc.sheetsWritesPerMinuteMax);
  };
  await recalculate();

  for (let hour = 0; hour < options.days * DAY_HOURS; hour++) {
    const hourStart = weekStart + hour * HOUR_MS;
    for (const event of events.filter((e) => e.atHour === hour)) {
      log(`day ${Math.floor(hour / DAY_HOURS) + 1} ${String(hour % DAY_HOURS).padStart(2, '0')}:00 ${event.what}`);
      await event.run(stack);
    }
    await stack.control('orders', { count: options.ordersPerHour });
    if (hour % options.changeEveryHours === 0) await changeOneOrder(stack, hour);

    // Google fires every installed clock trigger (a schedule paused and resumed is a new trigger).
    stack.runtime.quotas.resetPeakPerMinute(USER);
    const scheduled = stack.runtime.triggers.filter((t) => t.handlerFunction === SCHEDULED_HANDLER);
    for (const trigger of scheduled) {
      const run = await execute(() => stack.runtime.fireTrigger(trigger.uid));
      report.executions.trigger++;
      const progress = run.value as { problem?: { userMessage?: string } | null } | undefined;
      if (!run.ok || progress?.problem)
        report.runProblems.push(
          `hour ${hour}, ${trigger.documentId === copy ? 'the copy' : 'the spreadsheet'}: ${run.error?.message ?? progress?.problem?.userMessage ?? ''}`,
        );
    }
    peaks.note(
      'Sheets API reads a minute (owner)',
      SHEETS_REQUESTS_PER_MINUTE,
      stack.runtime.quotas.peakPerMinute(USER).read,
    );
    peaks.note(
      'Sheets API writes a minute (owner)',
      SHEETS_REQUESTS_PER_MINUTE,
      stack.runtime.quotas.peakPerMinute(USER).write,
    );

    const nowGeneration = stack.runtime.properties.document.get('ma.formulaGeneration');
    if (nowGeneration !== generation) {
      generation = nowGeneration;
      await recalculate();
    }

    const open = hour % DAY_HOURS >= OPEN_FROM_HOUR && hour % DAY_HOURS < OPEN_UNTIL_HOUR;
    if (open) await sidebarsOpenFor(hourStart, hour % DAY_HOURS === OPEN_FROM_HOUR);
    if (hour % DAY_HOURS === DAY_HOURS - 1) {
      const day = (hour + 1) / DAY_HOURS;
      const seen = peaks
        .list()
        .map((p) => `${p.quota} ${p.pct} %`)
        .join('; ');
      log(
        `day ${day} done: ${report.executions.trigger} trigger runs, ${report.executions.sidebar} sidebar calls, ${report.executions.formulas} custom-function executions (${report.executions.reportCells} report cells), ${report.quotaRefusals} quota refusals; peaks so far: ${seen}`,
      );
    }
    const rest = hourStart + HOUR_MS - stack.runtime.clock.now();
    if (rest > 0) await stack.advanceClocks(rest);
  }

  report.goneTriggerRemoved = !stack.runtime.triggers.some((t) => t.documentId === copy);
  const comparison = await compareWithTruth(stack);
  report.truthDifferences =
    comparison.mismatches.length +
    comparison.missing.length +
    comparison.unexpected.length +
    comparison.duplicates.length;
  for (const n of apiByHour.values()) peaks.note('API requests an hour (store)', API_REQUESTS_PER_HOUR, n);
  for (const user of EDITORS)
    peaks.note(
      `Simultaneous executions (${user})`,
      SIMULTANEOUS_EXECUTIONS_PER_USER,
      stack.runtime.simultaneousPeak(user),
    );
  report.peaks = peaks.list();
  return report;

  /**
   * The editors' sidebars through the rest of this hour: each opens at 9:00 (the whole state), then
   * looks for changes at its cadence and reads the state again when the stamp moved.
   */
  async function sidebarsOpenFor(hourStart: number, opening: boolean): Promise<void> {
    const state = new Map<string, { nextAt: number; quietSince: number; stamp: unknown }>();
    for (const user of EDITORS) {
      const opened = opening ? await execute(() => stack.runtime.run('getSidebarState', [], { user })) : null;
      report.executions.sidebar += opened ? 1 : 0;
      const previous = sidebarMemory.get(user);
      const stamp = opened ? (opened.value as { stamp?: unknown } | undefined)?.stamp : previous?.stamp;
      const quietSince = opening ? stack.runtime.clock.now() : (previous?.quietSince ?? hourStart);
      const nextAt = opening ? stack.runtime.clock.now() + nextLookInMs(0) : (previous?.nextAt ?? hourStart);
      state.set(user, { nextAt, quietSince, stamp });
    }
    const end = hourStart + HOUR_MS;
    for (;;) {
      const [user, next] = [...state].sort((a, b) => a[1].nextAt - b[1].nextAt)[0];
      if (next.nextAt >= end) break;
      const wait = next.nextAt - stack.runtime.clock.now();
      if (wait > 0) await stack.advanceClocks(wait);
      const look = await execute(() => stack.runtime.run('getSidebarStamp', [], { user }));
      report.executions.sidebar++;
      if (look.ok && look.value !== next.stamp) {
        const read = await execute(() => stack.runtime.run('getSidebarState', [], { user }));
        report.executions.sidebar++;
        next.stamp = (read.value as { stamp?: unknown } | undefined)?.stamp ?? look.value;
        next.quietSince = stack.runtime.clock.now();
      }
      next.nextAt = stack.runtime.clock.now() + nextLookInMs(stack.runtime.clock.now() - next.quietSince);
    }
    for (const [user, s] of state) sidebarMemory.set(user, s);
  }
}

const CHANGES = ['refund', 'partial_refund', 'cost_correction', 'late_fulfillment', 'cancel', 'ad_spend'] as const;

/**
 * One change to an order, of a kind that cycles through the week; an order the change no longer fits
 * (refunded already, cancelled: the emulator answers 409) gives way to the next.
 */
async function changeOneOrder(stack: Stack, hour: number): Promise<void> {
  const orders = ((await stack.truth('orders')) as { data: Array<{ id: string; canceled_at: string | null }> }).data;
  const open = orders.filter((o) => !o.canceled_at);
  for (let attempt = 0; attempt < 10 && open.length > 0; attempt++) {
    const order = open[(hour * 7919 + attempt * 104_729) % open.length];
    try {
      await stack.control(`orders/${order.id}/change`, { kind: CHANGES[hour % CHANGES.length] });
      return;
    } catch (error) {
      if (!/answered 409/.test(String(error))) throw error;
    }
  }
}
