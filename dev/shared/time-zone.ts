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

/** Offset of the zone from UTC at an instant, in ms, read from Intl (local = utc + offset). */
function measuredOffsetMs(epochMs: number, timeZone: string): number {
  const parts = wallClockFormatter(timeZone).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return asUtc - wholeSeconds;
}

const HOUR_MS = 3_600_000;
/** Per zone, the offset at the start of each UTC hour asked about: formatToParts is slow, and tests ask millions of times. */
const offsetsAtHour = new Map<string, Map<number, number>>();
const MAX_HOURS_KEPT = 200_000;

function offsetAtHour(hour: number, timeZone: string): number {
  let hours = offsetsAtHour.get(timeZone);
  if (!hours) offsetsAtHour.set(timeZone, (hours = new Map()));
  let offset = hours.get(hour);
  if (offset === undefined) {
    if (hours.size >= MAX_HOURS_KEPT) hours.clear();
    offset = measuredOffsetMs(hour * HOUR_MS, timeZone);
    hours.set(hour, offset);
  }
  return offset;
}

/**
 * Offset of the zone from UTC at an instant, in ms (local = utc + offset; positive east of Greenwich).
 * Where the offset is the same at both ends of the instant's UTC hour, no transition lies between
 * (zones change offset at most once in an hour), so the hour's offset is the instant's.
 */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const hour = Math.floor(epochMs / HOUR_MS);
  if (!Number.isFinite(hour)) return measuredOffsetMs(epochMs, timeZone);
  const start = offsetAtHour(hour, timeZone);
  return start === offsetAtHour(hour + 1, timeZone) ? start : measuredOffsetMs(epochMs, timeZone);
}

/** The instant whose wall-clock time in the zone is `localMs` (wall time written as if UTC). */
export function wallTimeToEpoch(localMs: number, timeZone: string): number {
  const guess = localMs - zoneOffsetMs(localMs, timeZone);
  return localMs - zoneOffsetMs(guess, timeZone);
}
