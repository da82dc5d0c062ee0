/**
 * One percent representation: every percent cell holds Sheets' fraction under a
 * bare-% format (0.5508 shown "55.08%"), so arithmetic on it works as a finance user expects —
 * =B2*100 gives the API's points — in Orders (cogs_coverage_pct and the margins, spec 2.3) and the
 * Monthly P&L (the spec's margin rule on the truth's cents). A spreadsheet an earlier version
 * synced holds points under 0.00"%": the next sync turns every percent cell into its fraction,
 * once, and the dashboard's margin row follows. Ground truth: the emulator's truth orders and days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayValue } from '../../dev/gas-runtime/spreadsheet/number-format';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import {
  asEarlierVersion,
  headerOf,
  MONTH_MARGINS,
  ORDER_PERCENTS,
  PERCENT_TAG,
  sheetMetadata,
  sheetOf,
  timesHundred,
  truthMonthPoints,
  truthOrderPoints,
  workbookOf,
} from './percent-support';
import { syncUntilCaughtUp } from './sync-support';

let stack: Stack;

const workbook = (): Workbook => workbookOf(stack);
const sheet = (name: string): SheetModel => sheetOf(stack, name);
const percentTags = (name: string): number => sheetMetadata(stack, name, PERCENT_TAG).length;

/** Every percent cell of a sheet beside the truth's points: value ×100, what it shows, its format. */
function percentCells(
  name: string,
  key: string,
  headers: readonly string[],
): Array<{ key: string; header: string; value: unknown; shown: string; format: string | undefined }> {
  const s = sheet(name);
  const header = headerOf(s);
  const out = [];
  for (let r = 2; r <= s.lastRow(); r++) {
    for (const h of headers) {
      const c = header.indexOf(h) + 1;
      const value = s.value(r, c);
      out.push({
        key: String(s.value(r, header.indexOf(key) + 1)),
        header: h,
        value,
        shown: displayValue(value, s.format(r, c)),
        format: s.format(r, c),
      });
    }
  }
  return out;
}

async function expectFractionsOfTruth(): Promise<void> {
  const orders = await truthOrderPoints(stack);
  const cells = percentCells('Orders', 'id', ORDER_PERCENTS);
  expect(cells.length).toBeGreaterThan(0);
  expect(
    cells.some((c) => c.header === 'cogs_coverage_pct' && orders.get(c.key)![c.header] < 100),
    'the truth has an order whose costs are covered in part',
  ).toBe(true);
  for (const c of cells) {
    const points = orders.get(c.key)![c.header];
    expect(timesHundred(c.value), `Orders ${c.key} ${c.header}: =cell*100`).toBe(points);
    expect(Math.abs(Number(c.value))).toBeLessThanOrEqual(Math.abs(points));
    expect(c.shown, `Orders ${c.key} ${c.header} as shown`).toBe(`${points.toFixed(2)}%`);
  }
  const months = await truthMonthPoints(stack);
  const monthCells = percentCells('Monthly P&L', 'month', Object.keys(MONTH_MARGINS));
  expect(monthCells.length).toBeGreaterThan(0);
  for (const c of monthCells) {
    const points = months.get(c.key)![c.header];
    expect(timesHundred(c.value), `Monthly P&L ${c.key} ${c.header}: =cell*100`).toBe(points);
    expect(c.shown, `Monthly P&L ${c.key} ${c.header} as shown`).toBe(`${points.toFixed(2)}%`);
  }
}

beforeAll(async () => {
  stack = await startStack({ orders: 150, seed: 24 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe("percent cells hold Sheets' fraction", () => {
  it('Orders and Monthly P&L: =cell*100 gives the API points, the cell shows them with %', async () => {
    await expectFractionsOfTruth();
  });

  it('a spreadsheet an earlier version synced (points under 0.00"%") holds fractions after the next sync, divided once', async () => {
    const inserted = await stack.runtime.run('insertDashboard', [], { authMode: 'FULL' });
    expect(inserted.ok, inserted.error?.message).toBe(true);
    asEarlierVersion(stack, 'Orders', ORDER_PERCENTS);
    asEarlierVersion(stack, 'Monthly P&L', Object.keys(MONTH_MARGINS));
    const dashboard = sheet('Dashboard');
    const marginRow = [...Array(dashboard.lastRow()).keys()]
      .map((i) => i + 1)
      .find((r) => dashboard.value(r, 1) === 'Net margin %')!;
    for (let c = 2; c <= 4; c++) dashboard.setFormat(marginRow, c, '0.00"%"');
    for (const m of workbook().developerMetadata.filter((m) => m.key === PERCENT_TAG))
      if (m.location.type === 'SHEET' && m.location.sheetId === dashboard.sheetId)
        workbook().removeDeveloperMetadata(m.id);

    await syncUntilCaughtUp(stack);
    await expectFractionsOfTruth();
    for (const c of [
      ...percentCells('Orders', 'id', ORDER_PERCENTS),
      ...percentCells('Monthly P&L', 'month', Object.keys(MONTH_MARGINS)),
    ])
      expect(c.format, `${c.key} ${c.header}`).toBe('0.00%');
    expect([percentTags('Orders'), percentTags('Monthly P&L'), percentTags('Dashboard')]).toEqual([1, 1, 1]);
    for (let c = 2; c <= 4; c++) expect(dashboard.format(marginRow, c)).toBe('0.00%');

    // A later sync finds the tag: nothing is divided again.
    await syncUntilCaughtUp(stack);
    await expectFractionsOfTruth();
    expect([percentTags('Orders'), percentTags('Monthly P&L'), percentTags('Dashboard')]).toEqual([1, 1, 1]);
  });
});
