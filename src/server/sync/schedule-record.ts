/** The schedule as the document stores it, read back: anything unreadable is Off. */

export type Schedule = { kind: 'off' } | { kind: 'hourly' } | { kind: 'daily'; hour: number };

export function parseSchedule(raw: string | null): Schedule {
  return scheduleOf(readJson(raw));
}

export function scheduleOf(value: Record<string, unknown> | null): Schedule {
  if (value && value.kind === 'hourly') return { kind: 'hourly' };
  if (value && value.kind === 'daily' && isHour(value.hour)) return { kind: 'daily', hour: value.hour as number };
  return { kind: 'off' };
}

export function readJson(raw: string | null): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // an unreadable value means no schedule
  }
}

export function isHour(hour: unknown): boolean {
  return typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23;
}
