/**
 * Spec 4.4 rule 1 and the created_after/created_before rows: a date is a whole day in the store's
 * time zone, also on the days daylight saving time starts or ends (23- and 25-hour days, and days
 * whose midnight does not exist or happens twice). Orders are placed one second either side of
 * each local midnight; the expected instants are written out from the zone rules, and the rest of
 * the data is checked with Intl, independently of the emulator's own calendar code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pageAll, startHarness, type Harness, type Order } from './harness.js';

function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

interface Transition {
  zone: string;
  /** The local day whose end is checked. */
  day: string;
  next: string;
  /** The instant the next local day starts, from the zone's rules. */
  midnightUtc: string;
}

const TRANSITIONS: Transition[] = [
  // New York, spring forward on 9 March 2025 at 02:00: a 23-hour day ending at 04:00Z (EDT).
  { zone: 'America/New_York', day: '2025-03-09', next: '2025-03-10', midnightUtc: '2025-03-10T04:00:00Z' },
  // New York, fall back on 2 November 2025 at 02:00: a 25-hour day ending at 05:00Z (EST).
  { zone: 'America/New_York', day: '2025-11-02', next: '2025-11-03', midnightUtc: '2025-11-03T05:00:00Z' },
  // Santiago, fall back at midnight on 6 April 2025: 23:00-24:00 on the 5th happens twice; the 6th starts at 04:00Z.
  { zone: 'America/Santiago', day: '2025-04-05', next: '2025-04-06', midnightUtc: '2025-04-06T04:00:00Z' },
  // Santiago, spring forward at midnight on 7 September 2025: 00:00 does not exist; the 7th starts at 01:00 local = 04:00Z.
  { zone: 'America/Santiago', day: '2025-09-06', next: '2025-09-07', midnightUtc: '2025-09-07T04:00:00Z' },
];

const harnesses: Harness[] = [];
afterAll(() => Promise.all(harnesses.map((h) => h.close())));

/** Moves the emulator clock to `ms` (forward only) and places one order there. */
async function placeAt(h: Harness, ms: number): Promise<string> {
  const { now } = (await h.control<{ now: string }>('/_emulator/clock')).body;
  const delta = (ms - Date.parse(now)) / 1000;
  if (delta < 0) throw new Error('the clock only moves forward');
  await h.control('/_emulator/clock', { advance_seconds: delta });
  return (await h.control<{ created: string[] }>('/_emulator/orders', { count: 1 })).body.created[0]!;
}

describe.each(TRANSITIONS)('4.4 rule 1 across DST: $zone $day', ({ zone, day, next, midnightUtc }) => {
  it('created_before=day ends, and created_after=next starts, at the local midnight', async () => {
    const midnight = Date.parse(midnightUtc);
    const h = await startHarness({
      orders: 60,
      products: 8,
      days: 5,
      seed: 2,
      timezone: zone,
      now: midnight - 3 * 86_400_000,
    });
    harnesses.push(h);
    // Two seconds of margin: the emulator clock keeps running in real time between calls.
    const before = await placeAt(h, midnight - 2000);
    const after = await placeAt(h, midnight);
    h.token = await h.mint();
    const truth = await h.truthOrders();
    const placed = (id: string): Order => truth.find((o) => o.id === id)!;
    expect(localDay(placed(before).created_at, zone)).toBe(day);
    expect(localDay(placed(after).created_at, zone)).toBe(next);

    const onDay = await pageAll(h, `/api/v1/orders?status=all&limit=250&created_after=${day}&created_before=${day}`);
    const onNext = await pageAll(h, `/api/v1/orders?status=all&limit=250&created_after=${next}&created_before=${next}`);
    expect(onDay.map((o) => o.id)).toContain(before);
    expect(onDay.map((o) => o.id)).not.toContain(after);
    expect(onNext.map((o) => o.id)).toContain(after);
    expect(onNext.map((o) => o.id)).not.toContain(before);
    // Every other order lands on the day Intl gives it, so no order near the boundary is lost or doubled.
    expect(onDay.map((o) => o.id).sort()).toEqual(
      truth
        .filter((o) => localDay(o.created_at, zone) === day)
        .map((o) => o.id)
        .sort(),
    );
    expect(onNext.map((o) => o.id).sort()).toEqual(
      truth
        .filter((o) => localDay(o.created_at, zone) === next)
        .map((o) => o.id)
        .sort(),
    );
  });
});
