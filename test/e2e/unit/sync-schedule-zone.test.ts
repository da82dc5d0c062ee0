/**
 * The schedule's hour is the spreadsheet's: a clock trigger's atHour is read in the SCRIPT's time
 * zone unless inTimezone says otherwise (ClockTriggerBuilder.inTimezone), so a daily trigger is
 * pinned to the spreadsheet's zone. And a schedule stopped for a lost connection is remembered and
 * restored only for the sheets' store. schedule.ts against small stand-ins of ScriptApp & co.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type ScheduleModule = typeof import('../../../src/server/sync/schedule');
// Each test is one execution: the add-on keeps per-execution state in its modules (as Apps Script
// starts every execution with fresh globals), so the module is loaded afresh for each test.
let schedule: ScheduleModule;
const describeSchedule: ScheduleModule['describeSchedule'] = (...a) => schedule.describeSchedule(...a);
const getSchedule: ScheduleModule['getSchedule'] = () => schedule.getSchedule();
const resumeSuspendedSchedule: ScheduleModule['resumeSuspendedSchedule'] = (...a) =>
  schedule.resumeSuspendedSchedule(...a);
const scheduleTimeZone: ScheduleModule['scheduleTimeZone'] = () => schedule.scheduleTimeZone();
const setSchedule: ScheduleModule['setSchedule'] = (...a) => schedule.setSchedule(...a);
const suspendSchedule: ScheduleModule['suspendSchedule'] = (...a) => schedule.suspendSchedule(...a);
const suspendedSchedule: ScheduleModule['suspendedSchedule'] = () => schedule.suspendedSchedule();

interface Built {
  handler: string;
  calls: Array<[string, unknown]>;
}

let triggers: Built[];
let props: Map<string, string>;
const g = globalThis as Record<string, unknown>;

function store(map: () => Map<string, string>) {
  return {
    getProperty: (k: string) => map().get(k) ?? null,
    setProperty: (k: string, v: string) => map().set(k, v),
    setProperties: (values: Record<string, string>) => Object.entries(values).forEach(([k, v]) => map().set(k, v)),
    deleteProperty: (k: string) => map().delete(k),
    getProperties: () => Object.fromEntries(map()),
    getKeys: () => [...map().keys()],
  };
}

let userProps: Map<string, string>;
let metadata: Map<string, string>;

function spreadsheet(zone: string) {
  return {
    getId: () => 'sheet-1',
    getSpreadsheetTimeZone: () => zone,
    addDeveloperMetadata: (key: string, value: string) => metadata.set(key, value),
    createDeveloperMetadataFinder: () => ({
      withKey: (key: string) => ({
        find: () =>
          metadata.has(key)
            ? [
                {
                  getValue: () => metadata.get(key),
                  setValue: (v: string) => metadata.set(key, v),
                  remove: () => metadata.delete(key),
                },
              ]
            : [],
      }),
    }),
  };
}

beforeEach(async () => {
  triggers = [];
  props = new Map();
  userProps = new Map();
  metadata = new Map();
  g.SpreadsheetApp = {
    getActive: () => spreadsheet('Asia/Tokyo'),
    DeveloperMetadataVisibility: { PROJECT: 'PROJECT' },
  };
  g.Session = {
    getEffectiveUser: () => ({ getEmail: () => 'owner@example.com' }),
    getActiveUser: () => ({ getEmail: () => 'owner@example.com' }),
  };
  g.PropertiesService = {
    getDocumentProperties: () => store(() => props),
    getUserProperties: () => store(() => userProps),
  };
  g.ScriptApp = {
    getUserTriggers: () =>
      triggers.map((t) => ({
        getHandlerFunction: () => t.handler,
        getUniqueId: () => `uid-${triggers.indexOf(t)}`,
        built: t,
      })),
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
        return { getUniqueId: () => `uid-${triggers.indexOf(built)}` };
      };
      return builder;
    },
  };
  vi.resetModules();
  schedule = await import('../../../src/server/sync/schedule');
});

afterEach(() => {
  delete g.SpreadsheetApp;
  delete g.PropertiesService;
  delete g.ScriptApp;
  delete g.Session;
});

describe("a daily sync runs at the hour of the spreadsheet's time zone, and the sidebar names it", () => {
  it("pins the daily trigger to the spreadsheet's zone (atHour alone would use the script's)", () => {
    setSchedule({ kind: 'daily', hour: 7 });
    expect(triggers).toHaveLength(1);
    expect(triggers[0].calls).toContainEqual(['atHour', 7]);
    expect(triggers[0].calls).toContainEqual(['inTimezone', 'Asia/Tokyo']);
    expect(scheduleTimeZone()).toBe('Asia/Tokyo');
    expect(describeSchedule(getSchedule(), scheduleTimeZone())).toBe('every day at 07:00 (Asia/Tokyo time)');
  });

  it("keeps naming the zone the trigger was made in after the spreadsheet's zone changes", () => {
    setSchedule({ kind: 'daily', hour: 7 });
    g.SpreadsheetApp = {
      getActive: () => spreadsheet('Europe/Paris'),
      DeveloperMetadataVisibility: { PROJECT: 'PROJECT' },
    };
    expect(scheduleTimeZone()).toBe('Asia/Tokyo');
  });
});

describe('a schedule stopped for a lost connection is remembered for the same store only', () => {
  it("suspending removes the trigger and keeps the schedule; reconnecting the sheets' store restores it", () => {
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
