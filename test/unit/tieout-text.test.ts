import { describe, expect, it } from 'vitest';
import { tieoutAdvice, tieoutBad, tieoutText, type TieoutView } from '../../src/contract/tieout-text';

const view = (over: Partial<TieoutView>): TieoutView => ({
  checkedAt: '2026-11-24T06:00:00.000Z',
  days: 1234,
  failedDays: [],
  failedCount: 0,
  cutFrom: null,
  ...over,
});

describe('the sidebar’s tie-out line', () => {
  it('says every day ties out, with the count, and offers nothing to fix', () => {
    expect(tieoutText(view({}))).toBe('Checks: all 1,234 days tie out.');
    expect(tieoutText(view({ days: 1 }))).toBe('Checks: all 1 day ties out.');
    expect(tieoutAdvice(view({}))).toBeNull();
  });

  it('names the ✗ days, and how many more the Checks sheet lists', () => {
    expect(tieoutText(view({ failedDays: ['2026-10-03'], failedCount: 1 }))).toBe('✗ 2026-10-03 does not tie out.');
    expect(tieoutText(view({ failedDays: ['2026-10-03', '2026-10-07'], failedCount: 2 }))).toBe(
      '✗ 2026-10-03, 2026-10-07 do not tie out.',
    );
    expect(tieoutText(view({ failedDays: ['2026-10-03', '2026-10-07'], failedCount: 14 }))).toBe(
      '✗ 2026-10-03, 2026-10-07 and 12 more do not tie out.',
    );
    expect(tieoutAdvice(view({ failedDays: ['2026-10-03'], failedCount: 1 }))).toMatch(
      /^Sync now fetches the orders of those days again/,
    );
  });

  it('says when the plan cut the range checked', () => {
    expect(tieoutText(view({ days: 90, cutFrom: '2026-08-27' }))).toBe(
      'Checks: all 90 days tie out (from 2026-08-27: your plan shows no older history).',
    );
  });

  it('a tie-out that did not run is a ✗ saying why, never the earlier ✓', () => {
    const notRun = 'Tie-out not run this time: The column "cogs" of "Daily P&L" was deleted.';
    expect(tieoutText(view({ notRun }))).toBe(`✗ ${notRun}`);
    expect(tieoutBad(view({ notRun }))).toBe(true);
    expect(tieoutBad(view({}))).toBe(false);
  });
});
