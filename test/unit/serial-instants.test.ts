/** A wall-clock serial as instants: two in the hour the end of daylight saving repeats, one elsewhere. */
import { describe, expect, it } from 'vitest';
import { instantToSerial, serialInstants } from '../../src/server/platform/calendar';

const iso = (ms: number[]): string[] => ms.map((m) => new Date(m).toISOString());

describe('serialInstants', () => {
  it('01:32:30.657 on 2025-11-02 in New York is both 05:32:30.657Z (EDT) and 06:32:30.657Z (EST)', () => {
    const serial = instantToSerial(Date.parse('2025-11-02T06:32:30.657Z'), 'America/New_York');
    expect(iso(serialInstants(serial, 'America/New_York'))).toEqual([
      '2025-11-02T05:32:30.657Z',
      '2025-11-02T06:32:30.657Z',
    ]);
  });

  it('Lord Howe repeats half an hour', () => {
    const serial = instantToSerial(Date.parse('2026-04-04T15:10:00.000Z'), 'Australia/Lord_Howe');
    expect(iso(serialInstants(serial, 'Australia/Lord_Howe'))).toEqual([
      '2026-04-04T14:40:00.000Z',
      '2026-04-04T15:10:00.000Z',
    ]);
  });

  it('an hour outside the change is one instant', () => {
    const serial = instantToSerial(Date.parse('2025-11-03T06:32:30.657Z'), 'America/New_York');
    expect(iso(serialInstants(serial, 'America/New_York'))).toEqual(['2025-11-03T06:32:30.657Z']);
  });
});
