/**
 * Percent cells in the integration tests: a sheet made as an earlier version left it (points under
 * 0.00"%", no fraction tag) and the emulator's truth in points to hold the sheet to.
 */
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';

type Json = Record<string, unknown>;
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
  for (const m of workbookOf(stack).developerMetadata)
    if (m.key.startsWith(PERCENT_TAG) && m.location.type === 'SHEET' && m.location.sheetId === s.sheetId)
      workbookOf(stack).removeDeveloperMetadata(m.id);
}
