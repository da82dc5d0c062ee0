import { describe, expect, it } from 'vitest';
import { marginPct, roundCents, toCents } from '../../dev/emulator/money.js';
import { endOfLocalDay, isCalendarDate, localDate, startOfLocalDay } from '../../dev/emulator/timezone.js';

describe('4.4 rule 1 ground truth: store-local days across DST changes', () => {
  it.each([
    // [zone, date, first instant of the day (UTC), last instant]
    ['America/New_York', '2024-03-10', '2024-03-10T05:00:00.000Z', '2024-03-11T03:59:59.999Z'], // 23-hour day
    ['America/New_York', '2024-11-03', '2024-11-03T04:00:00.000Z', '2024-11-04T04:59:59.999Z'], // 25-hour day
    ['Pacific/Auckland', '2024-04-07', '2024-04-06T11:00:00.000Z', '2024-04-07T11:59:59.999Z'],
    ['Asia/Kolkata', '2024-01-01', '2023-12-31T18:30:00.000Z', '2024-01-01T18:29:59.999Z'],
    ['UTC', '2024-02-29', '2024-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
  ])('%s %s', (zone, date, first, last) => {
    expect(new Date(startOfLocalDay(date, zone)).toISOString()).toBe(first);
    expect(new Date(endOfLocalDay(date, zone)).toISOString()).toBe(last);
    expect(localDate(Date.parse(first), zone)).toBe(date);
    expect(localDate(Date.parse(last), zone)).toBe(date);
    expect(localDate(Date.parse(last) + 1, zone)).not.toBe(date);
  });

  it('accepts only real calendar dates', () => {
    expect(['2024-02-29', '1999-12-31'].map(isCalendarDate)).toEqual([true, true]);
    expect(['2023-02-29', '2024-13-01', '2024-1-01', '0001-01-01', '2024-01-01T00:00:00Z'].map(isCalendarDate)).toEqual(
      [false, false, false, false, false],
    );
  });
});

describe('2.3 rounding as documented: cents, half away from zero; percentages 0 when net_revenue <= 0', () => {
  it('rounds amounts and fractional cents half away from zero', () => {
    expect([toCents(1.005), toCents(-1.005), toCents(0.1 + 0.2), toCents(19.99)]).toEqual([101, -101, 30, 1999]);
    expect([roundCents(2.5), roundCents(-2.5), roundCents(2.4999)]).toEqual([3, -3, 2]);
  });

  it('computes margins to two decimals and 0 for zero or negative revenue', () => {
    expect(marginPct(1, 3)).toBe(33.33);
    expect(marginPct(2, 3)).toBe(66.67);
    expect(marginPct(-1, 8)).toBe(-12.5);
    expect(marginPct(500, 0)).toBe(0);
    expect(marginPct(500, -100)).toBe(0);
  });
});
