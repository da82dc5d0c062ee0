import { describe, expect, it } from 'vitest';
import { ACTIVE_LOOK_MS, IDLE_LOOK_MS, nextLookInMs } from '../../../src/sidebar/watch-cadence';

/** The looks an open sidebar makes over `hours` with nothing happening, as watch.ts schedules them. */
function idleLooks(hours: number): number {
  let at = 0;
  let looks = 0;
  while (at < hours * 3_600_000) {
    at += nextLookInMs(at);
    looks++;
  }
  return looks;
}

describe('the open sidebar looks for changes less often the longer nothing happens', () => {
  it('looks every few seconds while the user works, so a run elsewhere shows at once', () => {
    expect(nextLookInMs(0)).toBe(ACTIVE_LOOK_MS);
    expect(nextLookInMs(60_000)).toBe(ACTIVE_LOOK_MS);
  });

  it('slows down once quiet, but a background run still shows within half a minute', () => {
    expect(nextLookInMs(5 * 60_000)).toBeGreaterThan(ACTIVE_LOOK_MS);
    expect(nextLookInMs(8 * 3_600_000)).toBe(IDLE_LOOK_MS);
    expect(IDLE_LOOK_MS).toBeLessThanOrEqual(30_000);
  });

  it('a sidebar left open 8 hours makes about 1,000 looks (executions on Google), not 7,200', () => {
    const looks = idleLooks(8);
    expect(looks).toBeLessThan(1_100);
    expect(looks).toBe(30 + 32 + (8 * 60 - 10) * 2);
  });
});
