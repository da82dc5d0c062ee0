/**
 * A trigger that could not open its spreadsheet in 3 runs over 2 hours removes itself
 * (schedule-gone-spreadsheet). When access comes back (the owner re-shared it, or Google's outage
 * passed), the user who chose the schedule must not find a bare "Off": the schedule view says why
 * it is off and since when, and setting the schedule again clears the note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const A = 'user@example.com';
const HOUR = 3_600_000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 221 });
  expect((await stack.connect()).outcome).toBe('connected');
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

type ScheduleView = { mode: string; note: { kind: string; message: string } | null };

async function scheduleView(): Promise<ScheduleView> {
  const state = await stack.runtime.run('getSidebarState');
  expect(state.ok, state.error?.message).toBe(true);
  return (state.value as { schedule: ScheduleView }).schedule;
}

describe('a schedule removed after hours without access', () => {
  it('access back: the schedule is off with a note saying why and since when; turning it on again clears the note', async () => {
    const uid = await scheduleTrigger(stack);
    const id = stack.runtime.workbook.id;
    stack.runtime.revokeAccess(id, A);
    let before = 0;
    let after = 0;
    for (let run = 0; run < 3; run++) {
      if (run > 0) await stack.advanceClocks(HOUR);
      before = stack.runtime.clock.now();
      await stack.runtime.fireTrigger(uid, { document: false });
      after = stack.runtime.clock.now();
    }
    expect(stack.runtime.triggers.some((t) => t.uid === uid)).toBe(false);
    stack.runtime.grantAccess(id, A);
    await stack.advanceClocks(HOUR);

    const off = await scheduleView();
    expect(off.mode).toBe('off');
    const zone = stack.runtime.workbook.timeZone;
    // The removal happened during the third run: any minute from its start to its end, in the spreadsheet's zone.
    const clock = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const minutes: string[] = [];
    for (let t = Math.ceil(before / 60_000) * 60_000; t <= Math.ceil(after / 60_000) * 60_000; t += 60_000)
      minutes.push(clock.format(new Date(t)));
    expect(off.note?.kind).toBe('removed');
    const said = /^Automatic sync \(every hour\) is off since (\d\d:\d\d) \((.+) time\): (.*)$/.exec(
      off.note?.message ?? '',
    );
    expect(said, off.note?.message).not.toBeNull();
    expect(minutes).toContain(said![1]);
    expect(said![2]).toBe(zone);
    expect(said![3]).toBe(
      'it could not open this spreadsheet in 3 runs over 2 hours (it was deleted, no longer shared with you, or Google could not open it then), so it removed itself. Turn it on again here.',
    );

    expect((await stack.runtime.run('setSchedule', [{ mode: 'hourly' }])).ok).toBe(true);
    const on = await scheduleView();
    expect(on.mode).toBe('hourly');
    expect(on.note).toBeNull();
    expect((await stack.runtime.run('setSchedule', [{ mode: 'off' }])).ok).toBe(true);
    expect((await scheduleView()).note).toBeNull();
  });
});
