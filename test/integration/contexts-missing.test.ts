/**
 * Missing contexts: "a null context anywhere produces a clear, specific message and a log line naming what
 * was missing, never a TypeError". Globals that need the spreadsheet are run the way Google could
 * run them without it (the strict runtime's `document: false`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 3 });
  expect((await stack.connect()).outcome).toBe('connected');
});
afterAll(async () => {
  await stack?.close();
});

describe('an execution without its document', () => {
  it.each([
    ['getSidebarState', 'the document properties'],
    ['runSyncStep', 'the document properties'],
    ['beginConnect', 'the spreadsheet'],
    ['onScheduledSync', 'the spreadsheet'],
    ['refreshFormulasFromMenu', 'the document properties'],
  ])('%s says it could not reach %s, and logs it', async (name, missing) => {
    const r = await stack.runtime.run(name, [], { document: false });
    expect(r.ok).toBe(false);
    expect(r.error?.name).not.toBe('TypeError');
    expect(r.error?.message).toMatch(
      new RegExp(`^Merchant Analytics could not reach ${missing} in this execution \\(.+\\)\\.$`),
    );
    expect(r.logs.join('\n')).toContain(`[context] ${missing} unavailable:`);
  });

  it('a scheduled run fired by a trigger its owner no longer knows removes the trigger and says so', async () => {
    const set = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    expect(set.ok).toBe(true);
    const trigger = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync')!;
    // The owner's record of it is gone (e.g. their properties were cleared).
    stack.runtime.properties.user.delete('ma.scheduleTriggers');
    const fired = await stack.runtime.fireTrigger(trigger.uid, { document: false });
    expect(fired.ok).toBe(true);
    expect((fired.value as { message: string }).message).toMatch(/does not know its spreadsheet/);
    expect(fired.logs.join('\n')).toContain(`no spreadsheet recorded for trigger ${trigger.uid}`);
    expect(stack.runtime.triggers.filter((t) => t.handlerFunction === 'onScheduledSync')).toHaveLength(0);
  });
});
