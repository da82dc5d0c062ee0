/**
 * The figures every execution reports for the bench: modelled time per service, time slept, the
 * worker thread's CPU time and its isolate's peak heap (dev/gas-runtime/worker/usage.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await basicRuntime({ modelledTimeOnly: true });
});
afterAll(async () => {
  await runtime.close();
});

describe('execution figures', () => {
  it('splits modelled time by service, and counts sleeps apart from it', async () => {
    const work = await runtime.run('countedWork');
    // two Properties gets (40 ms) and one set (70 ms), cost-model.ts
    expect(work.counts.modelledMsByService).toEqual({ PropertiesService: 150 });
    expect(work.counts.modelledMs).toBe(150);
    expect(work.counts.sleptMs).toBe(0);

    const slept = await runtime.run('sleepFor', [2_500]);
    expect(slept.counts.sleptMs).toBe(2_500);
    expect(slept.counts.modelledMs).toBe(0);
    // modelledTimeOnly: the execution's time is exactly what it spent
    expect(slept.elapsedMs).toBe(2_500);
  });

  it('lists the Sheets calls by method, apart from the other services', async () => {
    await runtime.run('writeGrid', [2, 2]);
    const result = await runtime.run('batchWrite');
    expect(result.ok).toBe(true);
    const sheets = result.counts.sheetsByMethod;
    expect(sheets['Sheets.Spreadsheets.Values.batchUpdate']).toBe(1);
    expect(Object.values(sheets).reduce((a, b) => a + b, 0)).toBe(result.counts.sheetsCalls);
    expect(Object.keys(sheets).some((k) => k.startsWith('Properties'))).toBe(false);
  });

  it("measures the worker thread's CPU time: fixed heavy work costs more than none", async () => {
    const idle = await runtime.run('spinWork', [0]);
    const busy = await runtime.run('spinWork', [300_000_000]);
    expect(idle.counts.workerCpuMs).not.toBeNull();
    expect(busy.counts.workerCpuMs!).toBeGreaterThan(idle.counts.workerCpuMs! + 100);
  });

  it("reports the isolate's peak heap, sampled at service calls", async () => {
    const small = await runtime.run('holdMemory', [1]);
    const large = await runtime.run('holdMemory', [80]);
    expect(large.counts.peakHeapBytes).toBeGreaterThan(80 * 1024 * 1024);
    expect(small.counts.peakHeapBytes).toBeLessThan(large.counts.peakHeapBytes - 70 * 1024 * 1024);
  });

  it('has no CPU figure for an execution ended where it stood (time limit, kill point)', async () => {
    const killed = await runtime.run('serviceCallLoop', [], { killAtServiceCall: 5 });
    expect(killed.timedOut).toBe(true);
    expect(killed.counts.workerCpuMs).toBeNull();
  });
});
