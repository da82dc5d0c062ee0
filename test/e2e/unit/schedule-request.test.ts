import { describe, expect, it } from 'vitest';
import { parseScheduleRequest } from '../../../src/server/sidebar/schedule-request';

describe('setSchedule input: bad input gets a clear error and changes nothing', () => {
  it('accepts off, hourly and daily at a whole hour 0–23', () => {
    expect(parseScheduleRequest({ mode: 'off' })).toEqual({ mode: 'off' });
    expect(parseScheduleRequest({ mode: 'hourly', hour: 5 })).toEqual({ mode: 'hourly' });
    expect(parseScheduleRequest({ mode: 'daily', hour: 0 })).toEqual({ mode: 'daily', hour: 0 });
    expect(parseScheduleRequest({ mode: 'daily', hour: 23 })).toEqual({ mode: 'daily', hour: 23 });
  });

  it.each([
    [{ mode: 'daily', hour: 24 }],
    [{ mode: 'daily', hour: 6.5 }],
    [{ mode: 'daily', hour: '6' }],
    [{ mode: 'daily' }],
  ])('refuses a daily hour outside 0–23: %j', (input) => {
    expect(() => parseScheduleRequest(input)).toThrow(/hour from 0 to 23/);
  });

  it.each([[null], ['hourly'], [{ mode: 'everyMinute' }], [{}]])('refuses an unknown schedule: %j', (input) => {
    expect(() => parseScheduleRequest(input)).toThrow(/off, every hour or every day/);
  });
});
