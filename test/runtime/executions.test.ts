import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;
const START = Date.UTC(2024, 4, 1, 9, 0, 0);

beforeAll(async () => {
  runtime = await basicRuntime({ startTime: START });
});
afterAll(async () => {
  await runtime.close();
});

describe('the V8 context lacks what Apps Script lacks', () => {
  it('has none of the forbidden globals and all the services', async () => {
    const result = await runtime.run('globalTypes');
    const types = result.value as Record<string, string>;
    for (const name of [
      'URL',
      'URLSearchParams',
      'TextEncoder',
      'TextDecoder',
      'setTimeout',
      'setInterval',
      'fetch',
      'atob',
      'btoa',
      'crypto',
      'process',
      'Buffer',
      'require',
      'structuredClone',
      'Blob',
    ]) {
      expect(types[name], name).toBe('undefined');
    }
    for (const name of [
      'Logger',
      'console',
      'Utilities',
      'PropertiesService',
      'UrlFetchApp',
      'ScriptApp',
      'HtmlService',
      'Session',
      'LockService',
      'CacheService',
    ]) {
      expect(types[name], name).toBe('object');
    }
  });

  it("reports a missing function with Google's message", async () => {
    const result = await runtime.run('noSuchFunction');
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe('Script function not found: noSuchFunction');
  });

  it('returns script errors by name and message', async () => {
    const result = await runtime.run('throwsTypeError');
    expect(result.ok).toBe(false);
    expect(result.error?.name).toBe('TypeError');
    expect(result.timedOut).toBe(false);
  });

  it('awaits a returned promise', async () => {
    expect((await runtime.run('asyncValue')).value).toBe(42);
  });
});

describe('values crossing into the context belong to its realm', () => {
  it("arrives as the context's own Date and Array", async () => {
    const date = await runtime.run('describeArgument', [new Date(0)]);
    expect(date.value).toEqual({ isDate: true, isArray: false, arrayInstance: false, type: 'object' });
    const array = await runtime.run('describeArgument', [[1, 2]]);
    expect(array.value).toEqual({ isDate: false, isArray: true, arrayInstance: true, type: 'object' });
  });

  it('round-trips nested values, Dates included', async () => {
    const value = { a: [1, 'two', null, true], when: new Date(Date.UTC(2024, 0, 2)) };
    expect((await runtime.run('echo', [value])).value).toEqual(value);
  });
});

describe("the runtime clock drives the script's Date", () => {
  it('starts at startTime and moves with clock.advance', async () => {
    const first = (await runtime.run('clockReading')).value as {
      now: number;
      date: number;
      isDate: boolean;
      parsed: number;
      str: string;
    };
    expect(first.isDate).toBe(true);
    expect(first.parsed).toBe(0);
    expect(first.str).toBe('string');
    expect(first.now).toBeGreaterThanOrEqual(START);
    expect(first.now - START).toBeLessThan(60_000);
    runtime.clock.advance(3 * 3_600_000);
    const later = (await runtime.run('clockReading')).value as { now: number };
    expect(later.now - first.now).toBeGreaterThanOrEqual(3 * 3_600_000);
  });

  it('Utilities.sleep moves the clock without waiting and calls onSleep', async () => {
    const slept: number[] = [];
    const rt = await basicRuntime({
      costModel: false,
      onSleep: async (ms) => {
        slept.push(ms);
      },
    });
    try {
      const realBefore = Date.now();
      const result = await rt.run('sleepFor', [120_000]);
      expect(result.value as number).toBeGreaterThanOrEqual(120_000);
      expect(Date.now() - realBefore).toBeLessThan(60_000);
      expect(slept).toEqual([120_000]);
      const tooLong = await rt.run('sleepFor', [300_001]);
      expect(tooLong.ok).toBe(false);
    } finally {
      await rt.close();
    }
  });
  it('a host that cannot move its other clocks (onSleep fails, e.g. the emulator closed) ends the execution with that error, never an unhandled rejection', async () => {
    const rt = await basicRuntime({
      costModel: true,
      onSleep: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
    });
    try {
      // A property read's modelled 40 ms is what moves the clock here.
      const result = await rt.run('getProperty', ['any']);
      expect(result.ok).toBe(false);
      expect(result.error?.message).toContain('ECONNREFUSED');
    } finally {
      await rt.close();
    }
  });
});

describe('the time limit ends an execution as Apps Script does', () => {
  it('stops a busy loop; its finally block never runs', async () => {
    const result = await runtime.run('busyLoop', [], { timeLimitMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe('Exceeded maximum execution time');
    expect(runtime.properties.script.get('finally')).toBeNull();
  });

  it('stops a loop of service calls once their modelled cost passes the limit', async () => {
    const result = await runtime.run('serviceCallLoop', [], { timeLimitMs: 5_000 });
    expect(result.timedOut).toBe(true);
    expect(result.error?.message).toBe('Exceeded maximum execution time');
    expect(runtime.properties.script.get('finally')).toBeNull();
    // 70 ms modelled per setProperty: about 5,000 / 70 calls fit before the limit.
    const iterations = Number(runtime.properties.script.get('iteration'));
    expect(iterations).toBeGreaterThan(10);
    expect(iterations).toBeLessThan(5_000 / 70 + 2);
  });

  it('refuses property writes in a custom function (read-only), without a time-out', async () => {
    const result = await runtime.run('serviceCallLoop', [], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.timedOut).toBe(false);
    expect(result.error?.message).toBe('You do not have permission to call Properties.setProperty');
  });
});

describe('kill points end an execution at the nth service call, before performing it', () => {
  it.each([1, 2, 4, 6])('kills at call %i', async (n) => {
    const rt = await basicRuntime();
    try {
      // Call 1 is getScriptProperties, calls 2..6 write step1..step5.
      const result = await rt.run('writeSteps', [5], { killAtServiceCall: n });
      expect(result.timedOut).toBe(true);
      expect(result.error?.message).toBe('Exceeded maximum execution time');
      expect(result.counts.serviceCalls).toBe(n - 1);
      const written = Object.keys(rt.properties.script.all()).sort();
      expect(written).toEqual(['step1', 'step2', 'step3', 'step4', 'step5'].slice(0, Math.max(0, n - 2)));
    } finally {
      await rt.close();
    }
  });

  it.each([1, 3])("kills at a method's call %i: the calls of other methods before it are made", async (n) => {
    const rt = await basicRuntime();
    try {
      const result = await rt.run('writeSteps', [5], {
        killAtMethodCall: { method: 'Properties.setProperty', nth: n },
      });
      expect(result.timedOut).toBe(true);
      expect(result.counts.byMethod).toEqual({
        'PropertiesService.getScriptProperties': 1,
        ...(n > 1 ? { 'Properties.setProperty': n - 1 } : {}),
      });
      expect(Object.keys(rt.properties.script.all()).sort()).toEqual(['step1', 'step2'].slice(0, n - 1));
    } finally {
      await rt.close();
    }
  });

  it('does not fire when the execution makes fewer calls', async () => {
    const result = await runtime.run('writeSteps', [2], { killAtServiceCall: 10 });
    expect(result.ok).toBe(true);
    expect(result.value).toBe(2);
  });
});

describe('counts per execution and in total', () => {
  it('counts each service method, the modelled time and the logs', async () => {
    const totalBefore = runtime.totals.serviceCalls;
    const result = await runtime.run('countedWork');
    expect(result.counts.byMethod).toEqual({
      'PropertiesService.getScriptProperties': 1,
      'Properties.getProperty': 2,
      'Properties.setProperty': 1,
    });
    expect(result.counts.serviceCalls).toBe(4);
    expect(result.counts.sheetsCalls).toBe(0);
    // Published figures: properties get 30-50 ms (40), set 60-75 ms (70).
    expect(result.counts.modelledMs).toBe(2 * 40 + 70);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(150);
    expect(result.logs).toEqual(['did 3 things', 'console line {"n":1}']);
    expect(runtime.totals.serviceCalls - totalBefore).toBe(4);
  });

  it('models nothing when the cost model is off', async () => {
    const rt = await basicRuntime({ costModel: false });
    try {
      const result = await rt.run('countedWork');
      expect(result.counts.modelledMs).toBe(0);
      expect(result.counts.serviceCalls).toBe(4);
    } finally {
      await rt.close();
    }
  });
});
