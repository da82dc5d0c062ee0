/** Wall-clock time of an IANA zone on top of Intl (no tz database of our own); shared by the emulator and the runtime. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError for an unknown IANA zone. */
function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError for an unknown IANA zone. */
export function assertTimeZone(timeZone: string): void {
  wallClockFormatter(timeZone);
}

/** Offset of the zone from UTC at an instant, in ms (local = utc + offset; positive east of Greenwich). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const parts = wallClockFormatter(timeZone).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return asUtc - wholeSeconds;
}

/** The instant whose wall-clock time in the zone is `localMs` (wall time written as if UTC). */
export function wallTimeToEpoch(localMs: number, timeZone: string): number {
  const guess = localMs - zoneOffsetMs(localMs, timeZone);
  return localMs - zoneOffsetMs(guess, timeZone);
}
