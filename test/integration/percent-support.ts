/**
 * Percent cells in the integration tests: a sheet made as an earlier version left it (points under
 * 0.00"%", no fraction tag) and the emulator's truth in points to hold the sheet to.
 */
import { marginPct } from '../../dev/emulator/money';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { scheduledRun } from './sync-support';

type Json = Record<string, unknown>;
/** The Monthly P&L's percent columns and the part of net revenue each is the margin of. */
export const MONTH_MARGINS = {
  net_margin_pct: 'net_profit',
  contribution_margin_pct: 'contribution_margin_cm3',
} as const;
export const ORDER_PERCENTS = ['cogs_coverage_pct', 'contribution_margin_pct', 'net_margin_pct'] as const;
/** The tag the add-on gives a sheet whose percent cells hold fractions (sheets/percent-upgrade.ts). */
export const PERCENT_TAG = 'merchant_analytics_percent';

export const workbookOf = (stack: Stack): Workbook => stack.runtime.workbook as unknown as Workbook;
export const sheetOf = (stack: Stack, name: string): SheetModel => workbookOf(stack).sheetByName(name) as SheetModel;

export function headerOf(s: SheetModel): string[] {
  const out: string[] = [];
  for (let c = 1; c <= s.lastColumn(); c++) out.push(String(s.value(1, c) ?? ''));
  return out;
}

/** What =cell*100 shows: Sheets computes in doubles and shows 15 significant digits. */
export const timesHundred = (value: unknown): number => Number((Number(value) * 100).toPrecision(15));

/** The truth's points of every order's percent fields, by order id. */
export async function truthOrderPoints(stack: Stack): Promise<Map<string, Record<string, number>>> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  return new Map(
    orders.map((o) => {
      const e = o.economics as Record<string, number>;
      return [String(o.id), Object.fromEntries(ORDER_PERCENTS.map((h) => [h, e[h]]))];
    }),
  );
}

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

/** The spec's monthly margins (rule 2/4/5 on the summed cents of the truth's days), in points, by month. */
export async function truthMonthPoints(stack: Stack): Promise<Map<string, Record<string, number>>> {
  const store = (await stack.truth('store')) as Json;
  const days = (
    (await stack.control(
      `truth/daily?start_date=${String(store.first_order_date)}&end_date=${String(store.today)}`,
    )) as {
      data: Array<Record<string, number> & { date: string }>;
    }
  ).data;
  const sums = new Map<string, Record<string, number>>();
  for (const d of days) {
    const m = sums.get(d.date.slice(0, 7)) ?? { net_revenue: 0, net_profit: 0, contribution_margin_cm3: 0 };
    for (const f of Object.keys(m)) m[f] += cents(d[f]);
    sums.set(d.date.slice(0, 7), m);
  }
  return new Map(
    [...sums].map(([month, m]) => [
      month,
      Object.fromEntries(Object.entries(MONTH_MARGINS).map(([h, part]) => [h, marginPct(m[part], m.net_revenue)])),
    ]),
  );
}

/** Developer metadata on the sheet itself whose key is `key`. */
export function sheetMetadata(stack: Stack, name: string, key: string): Workbook['developerMetadata'] {
  const sheetId = sheetOf(stack, name).sheetId;
  return workbookOf(stack).developerMetadata.filter(
    (m) => m.key === key && m.location.type === 'SHEET' && m.location.sheetId === sheetId,
  );
}

/** The sheet as an earlier version left it: points under 0.00"%", none of the add-on's percent metadata. */
export function asEarlierVersion(stack: Stack, name: string, headers: readonly string[]): void {
  const s = sheetOf(stack, name);
  const header = headerOf(s);
  for (let r = 2; r <= s.lastRow(); r++)
    for (const h of headers) {
      const c = header.indexOf(h) + 1;
      const value = s.value(r, c);
      if (typeof value === 'number') s.write(r, c, { value: timesHundred(value) });
      s.setFormat(r, c, '0.00"%"');
    }
  dropPercentMetadata(stack, s);
}

function dropPercentMetadata(stack: Stack, s: SheetModel): void {
  for (const m of [...workbookOf(stack).developerMetadata])
    if (m.key.startsWith(PERCENT_TAG) && m.location.type === 'SHEET' && m.location.sheetId === s.sheetId)
      workbookOf(stack).removeDeveloperMetadata(m.id);
}

/** Orders as an earlier version left it, from the truth by order id: points under 0.00"%", none of the add-on's percent metadata. */
export async function ordersAsEarlierVersion(stack: Stack): Promise<void> {
  const truth = await truthOrderPoints(stack);
  const s = sheetOf(stack, 'Orders');
  const header = headerOf(s);
  const id = header.indexOf('id') + 1;
  for (let r = 2; r <= s.lastRow(); r++)
    for (const h of ORDER_PERCENTS) {
      const c = header.indexOf(h) + 1;
      const points = truth.get(String(s.value(r, id)))?.[h];
      s.write(r, c, { value: points ?? undefined });
      s.setFormat(r, c, '0.00"%"');
    }
  dropPercentMetadata(stack, s);
}

/** Three hourly runs, each as it ended ("ok", else its error: a failed run says "the next run continues"). */
export async function hourlyRuns(stack: Stack): Promise<string[]> {
  const outcomes: string[] = [];
  for (let n = 0; n < 3; n++) {
    await stack.advanceClocks(3_600_000);
    const r = await scheduledRun(stack);
    const value = r.value as { outcome?: string; message?: string } | undefined;
    if (!r.ok) outcomes.push(`failed: ${String(r.error?.message).slice(0, 240)}`);
    else outcomes.push(value?.outcome === 'error' ? `error: ${String(value.message).slice(0, 240)}` : 'ok');
  }
  return outcomes;
}

/**
 * Orders' percent cells against the truth: how many are under the fraction format, how many were
 * divided twice or left in points, and every one that differs from the truth.
 */
export async function ordersAgainstTruth(
  stack: Stack,
): Promise<{ cells: number; fractionFormat: number; twice: number; points: number; wrong: string[] }> {
  const truth = await truthOrderPoints(stack);
  const s = sheetOf(stack, 'Orders');
  const header = headerOf(s);
  const id = header.indexOf('id') + 1;
  const tally = { cells: 0, fractionFormat: 0, twice: 0, points: 0, wrong: [] as string[] };
  for (let r = 2; r <= s.lastRow(); r++)
    for (const h of ORDER_PERCENTS) {
      const c = header.indexOf(h) + 1;
      const value = s.value(r, c);
      const points = truth.get(String(s.value(r, id)))?.[h];
      tally.cells++;
      if (s.format(r, c) === '0.00%') tally.fractionFormat++;
      else tally.wrong.push(`row ${r} ${h}: format ${String(s.format(r, c))}`);
      if (points === undefined || points === null ? (value ?? '') === '' : timesHundred(value) === points) continue;
      tally.wrong.push(`row ${r} ${h}: ${String(value)} (truth ${String(points)} points)`);
      if (value === points) tally.points++;
      else if (Number((Number(value) * 10_000).toPrecision(15)) === points) tally.twice++;
    }
  return tally;
}
