import { describe, expect, it } from 'vitest';
import { PROFIT_TOTALS_FIELDS } from '../../src/server/api/types';
import { checkPnlSheets } from '../../src/server/finance/tieout-pnl-sheets';
import { tieOut } from '../../src/server/finance/tieout';
import { DAILY, MONTHLY, columnIndex } from '../../src/server/sheets/schema';

type Day = Record<string, unknown> & { date: string };

/** A service day: every totals field 0 but those given. */
function day(date: string, figures: Record<string, number> = {}): Day {
  return { date, ...Object.fromEntries(PROFIT_TOTALS_FIELDS.map((f) => [f, figures[f] ?? 0])) };
}

function dailyRow(d: Day): unknown[] {
  const cells: unknown[] = DAILY.columns.map(() => '');
  cells[0] = d.date;
  for (const f of PROFIT_TOTALS_FIELDS) cells[columnIndex(DAILY, f)] = d[f];
  return cells;
}

function monthlyRow(
  month: string,
  first: string,
  last: string,
  days: number,
  figures: Record<string, number> = {},
): unknown[] {
  const cells: unknown[] = MONTHLY.columns.map(() => '');
  cells[columnIndex(MONTHLY, 'month')] = month;
  cells[columnIndex(MONTHLY, 'first_day')] = first;
  cells[columnIndex(MONTHLY, 'last_day')] = last;
  cells[columnIndex(MONTHLY, 'days')] = days;
  for (const f of PROFIT_TOTALS_FIELDS) cells[columnIndex(MONTHLY, f)] = figures[f] ?? 0;
  // No net revenue in these months: both margins are 0 (spec 2.3 rule 5), as the sheet writes them.
  for (const f of ['contribution_margin_pct', 'net_margin_pct']) cells[columnIndex(MONTHLY, f)] = figures[f] ?? 0;
  return cells;
}

describe('the P&L sheets beside the service (pure)', () => {
  const service = [
    day('2026-01-30', { net_profit: 10.01 }),
    day('2026-01-31', { net_profit: 5 }),
    day('2026-02-01', { net_profit: 1 }),
  ];

  it('a Daily P&L cell one cent off is named with both values; a day the sheet lacks between its first and last is named', () => {
    const rows = [dailyRow({ ...service[0], net_profit: 10.02 }), dailyRow(service[2])];
    const { days } = checkPnlSheets(rows, [], service);
    expect(days.get('2026-01-30')).toBe('net_profit 10.02 (service 10.01)');
    expect(days.get('2026-01-31')).toBe('the Daily P&L has no row for this day');
    expect(days.get('2026-02-01')).toBe('✓');
  });

  it('a day listed in two rows is named with its rows, even when both rows hold the service figures', () => {
    const rows = [dailyRow(service[0]), dailyRow(service[1]), dailyRow(service[2]), dailyRow(service[1])];
    const { days } = checkPnlSheets(rows, [], service);
    expect(days.get('2026-01-31')).toBe(
      "the day is listed in 2 rows (rows 3, 5); Sync now keeps row 3 with the service's figures and clears the others",
    );
    expect(days.get('2026-01-30')).toBe('✓');
  });

  it('a Monthly P&L total is the sum of the service days it says it covers, to the cent, and its days count too', () => {
    const months = checkPnlSheets(
      [],
      [
        monthlyRow('2026-01', '2026-01-30', '2026-01-31', 2, { net_profit: 15.01 }),
        monthlyRow('2026-02', '2026-02-01', '2026-02-01', 2, { net_profit: 1.01 }),
      ],
      service,
    ).months;
    expect(months.get('2026-01')).toBe('✓');
    expect(months.get('2026-02')).toBe('net_profit 1.01 (service 1.00); days 2 (service 1)');
  });

  it('a Daily P&L day before the first order is listed only when it differs, and its month too', () => {
    const pnlSheets = {
      days: new Map([
        ['2026-01-30', 'net_profit 510.01 (service 10.01)'],
        ['2026-01-31', '✓'],
      ]),
      months: new Map([['2026-01', 'net_profit 515.01 (service 15.01)']]),
    };
    // No order on 2026-02-01, and the service says so: only the sheets can differ.
    const quiet = [service[0], service[1], day('2026-02-01')];
    const rows = tieOut({
      orderRows: [],
      dayOf: () => null,
      pnlDays: quiet,
      storeCurrency: 'USD',
      basisHeld: 'a',
      basisNow: 'a',
      pnlSheets,
      ordersFrom: '2026-02-01',
    });
    expect(rows.filter((r) => !r.ok).map((r) => [r.period, r.kind])).toEqual([
      ['2026-01-30', 'day'],
      ['2026-01', 'month'],
    ]);
    expect(rows.map((r) => r.period)).not.toContain('2026-01-31');
  });
});
