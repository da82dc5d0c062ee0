/**
 * A schedule whose spreadsheet is gone (deleted, or no longer shared with its owner).
 * Google keeps the trigger and fires it without its document, where openById throws "Document …
 * is missing" (dev/gas-runtime/document-access.ts). The trigger must not fire for ever: it counts
 * its failed opens in the owner's properties and removes itself after 3 runs spanning 2 hours (a
 * single failure may be a passing outage); an open that works again starts the count again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const A = 'user@example.com';
const HOUR = 3_600_000;
const REGISTRY = 'ma.scheduleTriggers';

describe('a scheduled trigger whose spreadsheet is gone', () => {
  let stack: Stack;
  let uid: string;
  const exists = () => stack.runtime.triggers.some((t) => t.uid === uid);
  const registered = () =>
    uid in (JSON.parse(stack.runtime.properties.user.get(REGISTRY) ?? '{}') as Record<string, string>);

  async function fire(): Promise<{ message: string; logs: string[] }> {
    const r = await stack.runtime.fireTrigger(uid, { document: false });
    expect(r.ok, r.error?.message).toBe(true);
    return { message: (r.value as { message: string }).message, logs: r.logs };
  }

  beforeEach(async () => {
    stack = await startStack({ orders: 10, seed: 221 });
    expect((await stack.connect()).outcome).toBe('connected');
    uid = await scheduleTrigger(stack);
    await syncUntilCaughtUp(stack);
  });
  afterEach(async () => {
    await stack?.close();
  });

  it('deleted: the first runs keep the trigger, the third run two hours after the first removes it and its registry entry', async () => {
    stack.runtime.deleteDocument(stack.runtime.workbook.id);
    for (const hour of [0, 1]) {
      if (hour > 0) await stack.advanceClocks(HOUR);
      expect((await fire()).message).toContain('could not open its spreadsheet; it tries again');
      expect(exists()).toBe(true);
      expect(registered()).toBe(true);
    }
    await stack.advanceClocks(HOUR);
    const last = await fire();
    expect(last.message).toContain('it removed its trigger');
    expect(last.logs.join('\n')).toMatch(
      new RegExp(`trigger ${uid} removed: spreadsheet \\S+ could not be opened in 3 runs over 2 h`),
    );
    expect(exists()).toBe(false);
    expect(registered()).toBe(false);
    expect(stack.runtime.properties.user.get('ma.scheduleOpenFailures')).toBeNull();
  });

  it('no longer shared: an open that works again starts the count again; three failures over two hours after it remove the trigger', async () => {
    const id = stack.runtime.workbook.id;
    stack.runtime.revokeAccess(id, A);
    await fire();
    await stack.advanceClocks(HOUR);
    await fire();
    stack.runtime.grantAccess(id, A);
    await stack.advanceClocks(HOUR);
    expect((await fire()).message).not.toContain('could not open');
    stack.runtime.revokeAccess(id, A);
    for (let run = 1; run <= 2; run++) {
      await stack.advanceClocks(HOUR);
      expect((await fire()).message).toContain('it tries again');
      expect(exists()).toBe(true);
    }
    await stack.advanceClocks(HOUR);
    expect((await fire()).message).toContain('it removed its trigger');
    expect(exists()).toBe(false);
  });
});
