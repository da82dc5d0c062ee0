/**
 * Google allows 20 triggers per user per script (guides/services/quotas). The 21st
 * scheduled spreadsheet gets a message that names the limit, lists the user's other scheduled
 * spreadsheets (names where openById opens them) and says what to do; one that is gone is said as
 * gone and its trigger removed there and then.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

const A = 'user@example.com';
const REGISTRY = 'ma.scheduleTriggers';

describe('the 21st scheduled spreadsheet', () => {
  let stack: Stack;
  /** The 20 spreadsheets A scheduled (copies A made, each named "Store N"). */
  let scheduled: string[];

  beforeEach(async () => {
    stack = await startStack({ orders: 5, seed: 222 });
    scheduled = [];
    for (let n = 1; n <= 20; n++) {
      const id = stack.runtime.makeCopy(A);
      stack.runtime.copyOf(id).workbook.name = `Store ${n}`;
      const r = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }], { spreadsheetId: id });
      expect(r.ok, r.error?.message).toBe(true);
      scheduled.push(id);
    }
    expect(stack.runtime.triggers.filter((t) => t.userEmail === A)).toHaveLength(20);
  });
  afterEach(async () => {
    await stack?.close();
  });

  it("is refused with the limit, the user's scheduled spreadsheets by name and id, and the step to take", async () => {
    const r = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    expect(r.ok).toBe(false);
    const message = r.error?.message ?? '';
    expect(message).toContain(
      'Google allows each Google account 20 automatic schedules for this add-on, and yours has 20.',
    );
    for (const [i, id] of scheduled.entries()) expect(message).toContain(`"Store ${i + 1}" (${id})`);
    expect(message).toContain('set Sync automatically to Off; then turn it on here again.');
    expect(message).not.toContain('too many triggers');
    expect(stack.runtime.triggers).toHaveLength(20);
  });

  it('a deleted and an unshared spreadsheet are said as gone and their triggers removed; then the schedule can be set', async () => {
    const [deleted, unshared] = [scheduled[4]!, scheduled[11]!];
    const gone = new Set([deleted, unshared]);
    stack.runtime.deleteDocument(deleted);
    stack.runtime.revokeAccess(unshared, A);
    const r = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    expect(r.ok).toBe(false);
    const message = r.error?.message ?? '';
    for (const id of gone)
      expect(message).toContain(`${id}: gone (deleted, or no longer shared with you): its schedule was removed now`);
    expect(message).toContain('That made room: choose the schedule again.');
    expect(stack.runtime.triggers.map((t) => t.documentId).filter((id) => gone.has(id))).toEqual([]);
    expect(stack.runtime.triggers).toHaveLength(18);
    const registry = JSON.parse(stack.runtime.properties.user.get(REGISTRY)!) as Record<string, string>;
    expect(Object.values(registry).sort()).toEqual(scheduled.filter((id) => !gone.has(id)).sort());

    const again = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    expect(again.ok, again.error?.message).toBe(true);
    expect(stack.runtime.triggers.filter((t) => t.documentId === stack.runtime.workbook.id)).toHaveLength(1);
  });
});
