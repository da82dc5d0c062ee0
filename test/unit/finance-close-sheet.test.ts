/**
 * The Close sheet's layout, as a controller reads it: every time on it is a date-time serial in the
 * spreadsheet's zone (the watermark too, never raw UTC text), and the orders at close are kept in
 * their own section, read back as written. Pure.
 */
import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { closeSheetValues, readCloseSheet } from '../../src/server/finance/close-sheet';
import type { PnlFigures } from '../../src/server/finance/period-sums';
import { instantToSerial } from '../../src/server/platform/calendar';

const ZONE = 'Europe/Berlin';
const figures = Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, 1])) as PnlFigures;
const order = {
  id: 'ord_1',
  orderNumber: '#1001',
  status: 'active',
  placedDate: '2026-10-04',
  updatedAt: 46300.5,
  refunds: 0,
  netRevenue: 120.5,
  cogs: 40.25,
  profit: 60.1,
};
const record = {
  month: '2026-10',
  closedAt: Date.parse('2026-11-02T09:30:00Z'),
  basis: 'b',
  currency: 'USD',
  watermark: '2026-11-01T23:15:30.250Z',
  summary: {
    key: '2026-10',
    firstDay: '2026-10-04',
    lastDay: '2026-10-04',
    days: 1,
    figures,
    contributionMarginPct: 1,
    netMarginPct: 1,
  },
  days: [{ date: '2026-10-04', figures }],
  orders: [order],
};

describe('the Close sheet', () => {
  it('writes the orders sync watermark as a date-time in the spreadsheet zone, like the time of closing', () => {
    const values = closeSheetValues(record, ZONE);
    expect(values[4]!.slice(0, 2)).toEqual([
      'Orders sync watermark',
      instantToSerial(Date.parse(record.watermark), ZONE),
    ]);
    expect(values[1]!.slice(0, 2)).toEqual(['Closed at', instantToSerial(record.closedAt, ZONE)]);
  });

  it('keeps the orders at close in their own section, read back as written; a close without it has none', () => {
    const values = closeSheetValues(record, ZONE);
    const snapshot = readCloseSheet(values);
    expect(snapshot?.orders).toEqual([order]);
    expect([...snapshot!.days.keys()]).toEqual(['2026-10-04']);
    const older = readCloseSheet(closeSheetValues({ ...record, orders: [] }, ZONE).slice(0, 10));
    expect(older?.orders).toBeNull();
  });
});
