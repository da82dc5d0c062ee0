/**
 * Which paused runs a Sync now step waits out (spec 8.1's per-minute limits: burst, client_global,
 * concurrency, whose windows free within a minute) and which end the Sync now until later (the
 * hourly or daily limit, the add-on's hourly reserve).
 */
import { describe, expect, it } from 'vitest';
import { emptyCounts } from '../../src/contract/counts-text';
import type { PauseCause } from '../../src/server/sync/failures';
import { emptyTally } from '../../src/server/sync/job-context';
import { minuteLimitWaitMs } from '../../src/server/sync/minute-limit-wait';
import type { RunOutcome } from '../../src/server/sync/run-options';

const NOW = Date.parse('2026-11-26T14:00:00Z');

function paused(pauseFor: PauseCause | undefined, inMs: number | null): RunOutcome {
  return {
    done: false,
    job: 'orders',
    tally: emptyTally(),
    message: '',
    outcome: 'partial',
    failureCode: null,
    position: null,
    counts: emptyCounts(),
    pausedUntil: inMs === null ? null : NOW + inMs,
    ...(pauseFor ? { pauseFor } : {}),
  };
}

describe('minuteLimitWaitMs', () => {
  it.each(['burst', 'client_global', 'concurrency'] as const)('waits out a %s 429 until its Retry-After', (cause) => {
    expect(minuteLimitWaitMs(paused(cause, 42_000), NOW)).toBe(42_000);
    expect(minuteLimitWaitMs(paused(cause, 60_000), NOW)).toBe(60_000);
    expect(minuteLimitWaitMs(paused(cause, -500), NOW)).toBe(0);
  });

  it.each(['reserve', 'hour', 'day', 'unnamed'] as const)('leaves a %s pause to end the Sync now', (cause) => {
    expect(minuteLimitWaitMs(paused(cause, 30_000), NOW)).toBeNull();
  });

  it('leaves a per-minute 429 asking for more than a minute, a run not paused, and a pause without a time', () => {
    expect(minuteLimitWaitMs(paused('burst', 61_000), NOW)).toBeNull();
    expect(minuteLimitWaitMs(paused(undefined, 30_000), NOW)).toBeNull();
    expect(minuteLimitWaitMs(paused('burst', null), NOW)).toBeNull();
  });
});
