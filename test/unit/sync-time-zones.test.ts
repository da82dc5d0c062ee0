/**
 * Wall-clock times and daylight saving: sheets hold date-times as wall-clock serials in the
 * spreadsheet's zone, so in the hour repeated when DST ends two instants share one serial. The
 * reconciliation's "written since the pass began" judgement must never call an order that WAS
 * written during the pass gone (that would be false data); missing a gone order for a month is the
 * only acceptable error. Placement dates follow the store's zone, not the spreadsheet's.
 */
import { describe, expect, it } from 'vitest';
import { dateToSerial, instantToLocalDate, instantToSerial } from '../../src/server/platform/calendar';
import { KeyIndex } from '../../src/server/sheets/key-index';
import { planGoneMarks } from '../../src/server/sync/gone-marks';

const NY = 'America/New_York';
const ms = (iso: string): number => Date.parse(iso);

function ordersSynced(zone: string, rows: Array<[id: string, syncedIso: string]>): KeyIndex {
  const placed = dateToSerial('2025-10-01');
  return new KeyIndex(
    rows.map(([id, iso]) => [id, 'active', placed, '', instantToSerial(ms(iso), zone)]),
    zone,
  );
}

describe('reconciliation across the end of daylight saving (America/New_York, 2025-11-02)', () => {
  it('an order written during the pass, in the repeated hour, is not marked gone', () => {
    // The pass starts at 01:50 EDT; an hour later the clock reads 01:10 again (EST) and a page is written.
    const passStartedAt = ms('2025-11-02T05:50:00Z');
    const orders = ordersSynced(NY, [
      ['ord_seen_in_repeated_hour', '2025-11-02T06:10:00Z'],
      ['ord_seen_later', '2025-11-02T07:30:00Z'],
      ['ord_not_seen', '2025-11-01T12:00:00Z'],
    ]);
    const marks = planGoneMarks(orders, {
      passStartedAt,
      historyAvailableFrom: null,
      now: ms('2025-11-02T08:00:00Z'),
      spreadsheetTimeZone: NY,
    });
    expect(marks.writes.map((w) => w.row)).toEqual([orders.get('ord_not_seen')!.row]);
  });

  it('an order written during a pass that starts in the repeated hour is not marked gone', () => {
    const passStartedAt = ms('2025-11-02T06:20:00Z'); // 01:20 EST, the second 01:20 of the night
    const orders = ordersSynced(NY, [
      ['ord_seen', '2025-11-02T06:25:00Z'],
      ['ord_not_seen', '2025-10-30T12:00:00Z'],
    ]);
    const marks = planGoneMarks(orders, {
      passStartedAt,
      historyAvailableFrom: null,
      now: ms('2025-11-02T06:40:00Z'),
      spreadsheetTimeZone: NY,
    });
    expect(marks.writes.map((w) => w.row)).toEqual([orders.get('ord_not_seen')!.row]);
  });

  it('spring forward: rows written after the skipped hour are seen', () => {
    const passStartedAt = ms('2025-03-09T06:55:00Z'); // 01:55 EST; at 07:00Z the clock jumps to 03:00 EDT
    const orders = ordersSynced(NY, [
      ['ord_seen', '2025-03-09T07:05:00Z'],
      ['ord_not_seen', '2025-03-08T06:55:00Z'],
    ]);
    const marks = planGoneMarks(orders, {
      passStartedAt,
      historyAvailableFrom: null,
      now: ms('2025-03-09T07:10:00Z'),
      spreadsheetTimeZone: NY,
    });
    expect(marks.writes.map((w) => w.row)).toEqual([orders.get('ord_not_seen')!.row]);
  });
});

describe('placement dates in the store zone', () => {
  it('an order placed at 23:30 in Los Angeles is on that day even when the spreadsheet is in Berlin', () => {
    const placed = ms('2025-11-03T07:30:00Z'); // 2025-11-02 23:30 PST, 2025-11-03 08:30 CET
    expect(instantToLocalDate(placed, 'America/Los_Angeles')).toBe('2025-11-02');
    expect(instantToLocalDate(placed, 'Europe/Berlin')).toBe('2025-11-03');
  });

  it('midnight that does not exist (Santiago spring forward at 00:00) still gives the right day', () => {
    // 2024-09-08 00:00 does not exist in America/Santiago: the clock goes from 23:59:59 to 01:00.
    expect(instantToLocalDate(ms('2024-09-08T04:00:00Z'), 'America/Santiago')).toBe('2024-09-08');
    expect(instantToLocalDate(ms('2024-09-08T03:59:59Z'), 'America/Santiago')).toBe('2024-09-07');
  });
});
