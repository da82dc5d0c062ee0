/**
 * Utilities.formatDate: Java SimpleDateFormat patterns rendered in an IANA (or GMT±hh:mm) zone.
 * Unknown zone ids fall back to GMT, as java.util.TimeZone does.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface ZonedFields {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number; // 0 = Sunday
  offsetMinutes: number;
  zoneShort: string;
  zoneLong: string;
}

function pad(value: number, width: number): string {
  const text = String(Math.abs(value));
  return (value < 0 ? '-' : '') + (text.length >= width ? text : '0'.repeat(width - text.length) + text);
}

function fixedOffsetMinutes(timeZone: string): number | undefined {
  const match = /^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?$/.exec(timeZone);
  if (!match) return timeZone === 'GMT' || timeZone === 'UTC' ? 0 : undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

function offsetName(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}${separator}${pad(abs % 60, 2)}`;
}

function fieldsInFixedOffset(date: Date, offsetMinutes: number): ZonedFields {
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const name = `GMT${offsetName(offsetMinutes, ':')}`;
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    weekday: shifted.getUTCDay(),
    offsetMinutes,
    zoneShort: offsetMinutes === 0 ? 'GMT' : name,
    zoneLong: offsetMinutes === 0 ? 'Greenwich Mean Time' : name,
  };
}

function zonedFields(date: Date, timeZone: string): ZonedFields {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== undefined) return fieldsInFixedOffset(date, fixed);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    }).formatToParts(date);
  } catch {
    return fieldsInFixedOffset(date, 0);
  }
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const year = Number(part('year'));
  const month = Number(part('month'));
  const day = Number(part('day'));
  const hour = Number(part('hour'));
  const minute = Number(part('minute'));
  const second = Number(part('second'));
  const wholeSeconds = Math.floor(date.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - wholeSeconds) / 60_000);
  const longName =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'long' })
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond: ((date.getTime() % 1000) + 1000) % 1000,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    offsetMinutes,
    zoneShort: part('timeZoneName'),
    zoneLong: longName,
  };
}

function dayOfYear(f: ZonedFields): number {
  return Math.round((Date.UTC(f.year, f.month - 1, f.day) - Date.UTC(f.year, 0, 1)) / 86_400_000) + 1;
}

function isoOffset(offsetMinutes: number, count: number): string {
  if (offsetMinutes === 0) return 'Z';
  if (count === 1) {
    const sign = offsetMinutes < 0 ? '-' : '+';
    return `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}`;
  }
  return offsetName(offsetMinutes, count === 2 ? '' : ':');
}

function renderField(letter: string, count: number, f: ZonedFields): string {
  switch (letter) {
    case 'G':
      return 'AD';
    case 'y':
    case 'Y':
      return count === 2 ? pad(f.year % 100, 2) : pad(f.year, count);
    case 'M':
    case 'L':
      return count >= 4 ? MONTHS[f.month - 1] : count === 3 ? MONTHS[f.month - 1].slice(0, 3) : pad(f.month, count);
    case 'd':
      return pad(f.day, count);
    case 'D':
      return pad(dayOfYear(f), count);
    case 'E':
      return count >= 4 ? WEEKDAYS[f.weekday] : WEEKDAYS[f.weekday].slice(0, 3);
    case 'u':
      return pad(f.weekday === 0 ? 7 : f.weekday, count);
    case 'w': {
      const jan1 = new Date(Date.UTC(f.year, 0, 1)).getUTCDay();
      return pad(Math.floor((dayOfYear(f) - 1 + jan1) / 7) + 1, count);
    }
    case 'a':
      return f.hour < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(f.hour, count);
    case 'k':
      return pad(f.hour === 0 ? 24 : f.hour, count);
    case 'K':
      return pad(f.hour % 12, count);
    case 'h':
      return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'm':
      return pad(f.minute, count);
    case 's':
      return pad(f.second, count);
    case 'S':
      return pad(f.millisecond, count);
    case 'z':
      return count >= 4 ? f.zoneLong : f.zoneShort;
    case 'Z':
      return offsetName(f.offsetMinutes, '');
    case 'X':
      return isoOffset(f.offsetMinutes, Math.min(count, 3));
    default:
      throw new Error(`Illegal pattern character '${letter}'`);
  }
}

export function formatDate(date: Date, timeZone: string, pattern: string): string {
  if (date === null || typeof date !== 'object' || typeof date.getTime !== 'function' || Number.isNaN(date.getTime()))
    throw new Error('Invalid argument: date');
  const fields = zonedFields(date, timeZone);
  let out = '';
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        out += "'";
        i += 2;
        continue;
      }
      if (end < 0) throw new Error('Unterminated quote in date pattern');
      out += pattern.slice(i + 1, end);
      i = end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (pattern[i + count] === ch) count++;
      out += renderField(ch, count, fields);
      i += count;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
