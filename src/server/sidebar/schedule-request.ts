import type { ScheduleRequest } from '../../contract/sidebar';

/** Checks what the sidebar sent before any trigger is touched: bad input gets a clear error and changes nothing. */
export function parseScheduleRequest(input: unknown): ScheduleRequest {
  const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : null;
  const mode = value ? value.mode : undefined;
  if (mode === 'off' || mode === 'hourly') return { mode };
  if (mode === 'daily') {
    const hour = value ? value.hour : undefined;
    if (typeof hour !== 'number' || !Number.isInteger(hour) || hour < 0 || hour > 23) {
      throw new Error('The schedule was not changed: a daily sync needs an hour from 0 to 23.');
    }
    return { mode, hour };
  }
  throw new Error('The schedule was not changed: choose off, every hour or every day.');
}
