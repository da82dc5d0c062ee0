/**
 * Scheduling and stopping: one time-driven trigger per document (hourly or daily at an hour),
 * one sync at a time under the document lock, and a revoked grant that stops the schedule, logs
 * the reason and touches no data sheet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, sheetTable } from './sync-support';

let stack: Stack;

const ourTriggers = () => stack.runtime.triggers.filter((t) => t.handlerFunction === 'onScheduledSync');

beforeAll(async () => {
  stack = await startStack({ orders: 200, seed: 9 });
  await stack.connect();
});

afterAll(async () => {
  await stack?.close();
});

describe('one time-driven trigger per document', () => {
  it('hourly, then daily at a chosen hour, replaces the trigger; off removes it', async () => {
    expect((await stack.runtime.run('setSchedule', [{ mode: 'hourly' }])).ok).toBe(true);
    expect(ourTriggers()).toHaveLength(1);
    expect(ourTriggers()[0]).toMatchObject({ type: 'CLOCK', everyHours: 1 });

    const daily = await stack.runtime.run('setSchedule', [{ mode: 'daily', hour: 7 }]);
    expect(daily.value).toEqual({ mode: 'daily', hour: 7 });
    expect(ourTriggers()).toHaveLength(1);
    expect(ourTriggers()[0]).toMatchObject({ type: 'CLOCK', atHour: 7 });

    await stack.runtime.run('setSchedule', [{ mode: 'off' }]);
    expect(ourTriggers()).toHaveLength(0);
  });

  it('an hour outside 0–23 is refused with a clear error and changes nothing', async () => {
    await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    const bad = await stack.runtime.run('setSchedule', [{ mode: 'daily', hour: 25 }]);
    expect(bad.ok).toBe(false);
    expect(bad.error?.message).toMatch(/0 to 23|0–23|hour/i);
    expect(ourTriggers()).toHaveLength(1);
  });

  it('the trigger runs the sync', async () => {
    const fired = await stack.runtime.fireTrigger(ourTriggers()[0].uid);
    expect(fired.ok).toBe(true);
    expect(fired.value).toMatchObject({ done: true, outcome: 'ok' });
    expect(sheetTable(stack, 'Orders').length).toBe(201);
  });
});

describe('one sync at a time', () => {
  it('two runs started together never write at the same time: each is ok or logs "busy", nothing is duplicated', async () => {
    await stack.control('orders', { count: 1000 });
    const [a, b] = await Promise.all([stack.runtime.run('onScheduledSync', []), stack.runtime.run('onScheduledSync', [])]);
    for (const r of [a, b]) expect(['ok', 'busy']).toContain((r.value as { outcome: string }).outcome);
    const [headers, ...rows] = sheetTable(stack, 'Sync log');
    const busyRuns = [a, b].filter((r) => (r.value as { outcome: string }).outcome === 'busy').length;
    expect(rows.filter((r) => r[headers.indexOf('outcome')] === 'busy')).toHaveLength(busyRuns);
    const ids = sheetTable(stack, 'Orders').slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('grant revoked', () => {
  it('stops the schedule, logs the message and leaves the data sheets untouched', async () => {
    expect(ourTriggers()).toHaveLength(1);
    const before = stack.runtime.exportJson().sheets;
    await stack.control('grants/revoke', {});
    await stack.advanceClocks(2 * 60_000);
    await stack.control('orders', { count: 5 });
    const r = await stack.runtime.run('onScheduledSync', []);
    expect(r.ok).toBe(true);
    expect(r.value).toMatchObject({ outcome: 'error' });
    expect(ourTriggers()).toHaveLength(0);
    const after = stack.runtime.exportJson().sheets;
    for (const name of ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L']) expect(after[name]).toEqual(before[name]);
    // What was written before the revocation is still the truth of that time (5 orders came later).
    const result = await compareWithTruth(stack);
    expect(result.missing.filter((m) => m.startsWith('Orders:'))).toHaveLength(5);
    expect(result.mismatches.filter((m) => m.sheet === 'Orders')).toEqual([]);
    const [headers, ...rows] = after['Sync log'];
    const last = rows[rows.length - 1];
    expect(last[headers.indexOf('outcome')]).toBe('error');
    expect(String(last[headers.indexOf('message')])).toMatch(/reconnect|disconnect|revoked|access/i);
  });
});
