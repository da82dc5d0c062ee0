/**
 * The Monthly P&L's status column is set up wide enough for the month in progress's status
 * ("partial: month in progress") in Sheets' default font: at Sheets' default 100 px it showed
 * "partial: month in…". Orders' status (active, cancelled, gone) keeps the default width.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_PX, columnWidthPx } from '../../src/server/sheets/layout';
import { MONTHLY, ORDERS } from '../../src/server/sheets/schema';

/** Arial 10 (Sheets' default) averages under 7 px a character in lower case; the cell pads about 6 px a side. */
const shownWhole = (text: string, px: number): boolean => text.length * 7 + 12 <= px;

describe('status column widths', () => {
  it("Monthly P&L: 'partial: month in progress' fits the column", () => {
    const status = MONTHLY.columns.find((c) => c.header === 'status')!;
    expect(shownWhole('partial: month in progress', columnWidthPx(status))).toBe(true);
  });

  it("Orders' status keeps Sheets' default width", () => {
    const status = ORDERS.columns.find((c) => c.header === 'status')!;
    expect(columnWidthPx(status)).toBe(DEFAULT_COLUMN_PX);
  });
});
