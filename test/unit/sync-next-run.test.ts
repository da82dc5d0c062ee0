/**
 * The schedule says when it runs next, in the spreadsheet's time zone. A daily
 * trigger starts within its hour (Google picks the minute), an hourly one about an hour after its
 * last start.
 */
import { describe, expect, it } from 'vitest';
import { nextRunText } from '../../src/server/sync/next-run';

// 11:30 in Berlin (CET, UTC+1), 05:30 in New York (EST, UTC−5).
const NOW = Date.parse('2026-11-26T10:30:00Z');
const BERLIN = 'Europe/Berlin';

describe('the next scheduled run', () => {
  it("daily: today within the chosen hour while it is ahead, in the spreadsheet's zone", () => {
    expect(nextRunText({ kind: 'daily', hour: 14 }, BERLIN, NOW, null)).toBe(
      'Next run: today between 14:00 and 15:00.',
    );
    expect(nextRunText({ kind: 'daily', hour: 6 }, 'America/New_York', NOW, null)).toBe(
      'Next run: today between 06:00 and 07:00.',
    );
    expect(nextRunText({ kind: 'daily', hour: 23 }, BERLIN, NOW, null)).toBe(
      'Next run: today between 23:00 and 00:00.',
    );
  });

  it("daily: tomorrow once the hour has passed, or when today's run has started in it", () => {
    expect(nextRunText({ kind: 'daily', hour: 9 }, BERLIN, NOW, null)).toBe(
      'Next run: tomorrow between 09:00 and 10:00.',
    );
    expect(nextRunText({ kind: 'daily', hour: 11 }, BERLIN, NOW, null)).toBe('Next run: today before 12:00.');
    expect(nextRunText({ kind: 'daily', hour: 11 }, BERLIN, NOW, Date.parse('2026-11-25T10:05:00Z'))).toBe(
      'Next run: today before 12:00.',
    );
    expect(nextRunText({ kind: 'daily', hour: 11 }, BERLIN, NOW, Date.parse('2026-11-26T10:05:00Z'))).toBe(
      'Next run: tomorrow between 11:00 and 12:00.',
    );
  });

  it('hourly: about an hour after the last run started (rounded up to the minute), else within the hour', () => {
    expect(nextRunText({ kind: 'hourly' }, BERLIN, NOW, Date.parse('2026-11-26T10:12:30Z'))).toBe(
      'Next run: about 12:13.',
    );
    expect(nextRunText({ kind: 'hourly' }, 'America/New_York', NOW, Date.parse('2026-11-26T10:12:30Z'))).toBe(
      'Next run: about 06:13.',
    );
    expect(nextRunText({ kind: 'hourly' }, BERLIN, NOW, Date.parse('2026-11-26T09:12:30Z'))).toBe(
      'Next run: within the hour.',
    );
    expect(nextRunText({ kind: 'hourly' }, BERLIN, NOW, null)).toBe('Next run: within the hour.');
  });

  it('says nothing when the schedule is off', () => {
    expect(nextRunText({ kind: 'off' }, BERLIN, NOW, null)).toBeNull();
  });
});
