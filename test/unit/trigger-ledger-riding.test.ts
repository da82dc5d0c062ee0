/**
 * A scheduled run's entry in the trigger-minute ledger written with the owner copy's write (one user
 * properties write the run makes anyway) counts the run to its end ahead of time; when the rest of the
 * run takes longer than that, the end records the difference: the ledger never holds less than the run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ledgerRiding,
  recordRestOfRun,
  REST_OF_RUN_MS,
  rideWithOwnerCopy,
  scheduledAllowance,
} from '../../src/server/sync/trigger-allowance';

const data = new Map<string, string>();
let writes = 0;

beforeEach(() => {
  data.clear();
  writes = 0;
  const userStore = {
    getProperty: (key: string) => data.get(key) ?? null,
    setProperty(key: string, value: string) {
      writes++;
      data.set(key, value);
      return userStore;
    },
  };
  Object.assign(globalThis, { PropertiesService: { getUserProperties: () => userStore } });
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).PropertiesService;
});

/** The owner copy's write: the ledger's value stored as its setProperties would. */
function ownerCopyWrite(now: number): void {
  const rider = ledgerRiding(Object.fromEntries(data), now);
  for (const [key, value] of Object.entries(rider.values)) data.set(key, value);
  rider.written();
}

describe('the trigger-minute ledger riding with the owner copy', () => {
  const start = Date.UTC(2026, 0, 1, 9);

  it('records the run with the owner copy and makes no write of its own when the rest is short', () => {
    rideWithOwnerCopy(start);
    ownerCopyWrite(start + 4_000);
    recordRestOfRun(start + 4_000 + REST_OF_RUN_MS - 1, start);
    expect(writes).toBe(0);
    expect(scheduledAllowance(start + 5_000).usedMs).toBe(4_000 + REST_OF_RUN_MS);
  });

  it('records what the run took beyond it at the end', () => {
    rideWithOwnerCopy(start);
    ownerCopyWrite(start + 4_000);
    recordRestOfRun(start + 9_000, start);
    expect(writes).toBe(1);
    expect(scheduledAllowance(start + 10_000).usedMs).toBe(9_000);
  });

  it('records the run at the end when nothing rode (no owner copy written)', () => {
    rideWithOwnerCopy(start);
    recordRestOfRun(start + 6_000, start);
    expect(writes).toBe(1);
    expect(scheduledAllowance(start + 7_000).usedMs).toBe(6_000);
  });
});
