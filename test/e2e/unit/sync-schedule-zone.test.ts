/**
 * The schedule's hour is the spreadsheet's: a clock trigger's atHour is read in the SCRIPT's time
 * zone unless inTimezone says otherwise (ClockTriggerBuilder.inTimezone), so a daily trigger is
 * pinned to the spreadsheet's zone. And a schedule stopped for a lost connection is remembered and
 * restored only for the sheets' store. schedule.ts against small stand-ins of ScriptApp & co.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSchedule, getSchedule, resumeSuspendedSchedule, scheduleTimeZone, setSchedule, suspendSchedule, suspendedSchedule } from '../../../src/server/sync/schedule';

interface Built {
  handler: string;
  calls: Array<[string, unknown]>;
}

let triggers: Built[];
let props: Map<string, string>;
const g = globalThis as Record<string, unknown>;

beforeEach(() => {
  triggers = [];
  props = new Map();
  g.SpreadsheetApp = { getActive: () => ({ getSpreadsheetTimeZone: () => 'Asia/Tokyo' }) };
  g.PropertiesService = {
    getDocumentProperties: () => ({
      getProperty: (k: string) => props.get(k) ?? null,
      setProperty: (k: string, v: string) => props.set(k, v),
      deleteProperty: (k: string) => props.delete(k),
    }),
  };
  g.ScriptApp = {
    getUserTriggers: () => triggers.map((t) => ({ getHandlerFunction: () => t.handler, built: t })),
    deleteTrigger: (t: { built: Built }) => {
      triggers = triggers.filter((x) => x !== t.built);
    },
    newTrigger: (handler: string) => {
      const built: Built = { handler, calls: [] };
      const builder: Record<string, (arg?: unknown) => unknown> = {};
      for (const name of ['timeBased', 'everyHours', 'everyDays', 'atHour', 'inTimezone']) {
        builder[name] = (arg?: unknown) => {
          if (name !== 'timeBased') built.calls.push([name, arg]);
          return builder;
        };
      }
      builder.create = () => {
        triggers.push(built);
        return built;
      };
      return builder;
    },
  };
});

afterEach(() => {
  delete g.SpreadsheetApp;
  delete g.PropertiesService;
  delete g.ScriptApp;
});

describe('a daily sync runs at the hour of the spreadsheet\'s time zone, and the sidebar names it', () => {
  it('pins the daily trigger to the spreadsheet\'s zone (atHour alone would use the script\'s)', () => {
    setSchedule({ kind: 'daily', hour: 7 });
    expect(triggers).toHaveLength(1);
    expect(triggers[0].calls).toContainEqual(['atHour', 7]);
    expect(triggers[0].calls).toContainEqual(['inTimezone', 'Asia/Tokyo']);
    expect(scheduleTimeZone()).toBe('Asia/Tokyo');
    expect(describeSchedule(getSchedule(), scheduleTimeZone())).toBe('every day at 07:00 (Asia/Tokyo time)');
  });

  it('keeps naming the zone the trigger was made in after the spreadsheet\'s zone changes', () => {
    setSchedule({ kind: 'daily', hour: 7 });
    g.SpreadsheetApp = { getActive: () => ({ getSpreadsheetTimeZone: () => 'Europe/Paris' }) };
    expect(scheduleTimeZone()).toBe('Asia/Tokyo');
  });
});

describe('a schedule stopped for a lost connection is remembered for the same store only', () => {
  it('suspending removes the trigger and keeps the schedule; reconnecting the sheets\' store restores it', () => {
    setSchedule({ kind: 'daily', hour: 7 });
    suspendSchedule('st_A', 1);
    expect(triggers).toHaveLength(0);
    expect(getSchedule()).toEqual({ kind: 'off' });
    expect(suspendedSchedule()).toMatchObject({ schedule: { kind: 'daily', hour: 7 }, storeId: 'st_A' });
    expect(resumeSuspendedSchedule('st_A', 'st_A')).toEqual({ kind: 'daily', hour: 7 });
    expect(triggers).toHaveLength(1);
    expect(getSchedule()).toEqual({ kind: 'daily', hour: 7 });
    expect(suspendedSchedule()).toBeNull();
  });

  it('another store keeps it off (and remembered); a second failure does not forget it', () => {
    setSchedule({ kind: 'hourly' });
    suspendSchedule('st_A', 1);
    suspendSchedule('st_A', 2);
    expect(resumeSuspendedSchedule('st_B', 'st_A')).toBeNull();
    expect(triggers).toHaveLength(0);
    expect(suspendedSchedule()).toMatchObject({ schedule: { kind: 'hourly' } });
  });

  it('the user choosing a schedule replaces what was paused', () => {
    setSchedule({ kind: 'hourly' });
    suspendSchedule('st_A', 1);
    setSchedule({ kind: 'off' });
    expect(suspendedSchedule()).toBeNull();
    expect(resumeSuspendedSchedule('st_A', 'st_A')).toBeNull();
  });
});
