/**
 * Every global of the bundle can be typed into a cell. Whatever Google does with
 * one that has no @customfunction, such a call must not renew access (the refresh token would
 * rotate and the new one be lost), write properties, create triggers or start a sync; the globals
 * that would say what to use instead. Run as custom-function executions of the built bundle, with
 * the stored access token expired so that any renewal would show at the token endpoint.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

let stack: Stack;

/** Top-level functions of dist/Code.js, with whether their JSDoc says @customfunction. */
function bundleGlobals(): Array<{ name: string; customFunction: boolean }> {
  const code = readFileSync(path.join(__dirname, '..', '..', 'dist', 'Code.js'), 'utf8');
  const out: Array<{ name: string; customFunction: boolean }> = [];
  const re = /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*)?^function ([A-Za-z_$][\w$]*)\(/gm;
  for (let m = re.exec(code); m; m = re.exec(code))
    out.push({ name: m[2], customFunction: /@customfunction/.test(m[1] ?? '') });
  return out;
}

const snapshot = () =>
  JSON.stringify({
    document: stack.runtime.properties.document.all(),
    user: stack.runtime.properties.user.all(),
    users: Object.fromEntries(Object.entries(stack.runtime.properties.users).map(([k, v]) => [k, v.all()])),
    script: stack.runtime.properties.script.all(),
    triggers: stack.runtime.triggers.map((t) => t.uid),
  });

beforeAll(async () => {
  stack = await startStack({ orders: 60, seed: 12, plan: 'plus' });
  await stack.connect();
  expect((await stack.runtime.run('setSchedule', [{ mode: 'hourly' }])).ok).toBe(true);
  await syncUntilCaughtUp(stack);
  await stack.advanceClocks(2 * 3_600_000); // every stored access token has expired: a renewal would be tried
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the sidebar, menu and trigger globals refuse to run when typed into a cell', () => {
  it('the bundle has globals without @customfunction, and the known ones are among them', () => {
    const names = bundleGlobals()
      .filter((g) => !g.customFunction)
      .map((g) => g.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'runSyncStep',
        'onScheduledSync',
        'getSidebarState',
        'beginConnect',
        'setSchedule',
        'disconnectStore',
      ]),
    );
  });

  it('none renews access, writes a property, touches a trigger or syncs; those that would say what to use instead', async () => {
    const before = snapshot();
    const stats = (await stack.control('stats')) as {
      token_requests: number;
      by_endpoint: Record<string, { total: number }>;
    };
    const orderReads = (s: typeof stats) => s.by_endpoint['GET /api/v1/orders']?.total ?? 0;
    const messages: Record<string, string> = {};
    for (const { name } of bundleGlobals().filter((g) => !g.customFunction)) {
      const r = await stack.runtime.run(name, [], { authMode: 'CUSTOM_FUNCTION' });
      messages[name] = r.ok ? '(returned)' : String(r.error?.message);
    }
    const after = (await stack.control('stats')) as typeof stats;
    expect(after.token_requests, 'a token request was made from a cell').toBe(stats.token_requests);
    expect(orderReads(after), 'a sync ran from a cell').toBe(orderReads(stats));
    expect(snapshot()).toBe(before);
    for (const name of [
      'getSidebarState',
      'beginConnect',
      'disconnectStore',
      'startSync',
      'runSyncStep',
      'setSchedule',
      'onScheduledSync',
      'reconcileOrdersNow',
      'tieOutNow',
      'checkApiConnection',
      'closeMonth',
      'insertDashboard',
      'setFailureNotices',
      'syncNowFromMenu',
    ]) {
      expect(messages[name], name).toMatch(
        new RegExp(`^${name} cannot run in a cell: .*Use Extensions → Merchant Analytics`),
      );
    }
  }, 120_000);

  it('the same calls from the sidebar still work, and a fired trigger still syncs', async () => {
    const state = await stack.runtime.run('getSidebarState', []);
    expect(state.ok, state.error?.message).toBe(true);
    const trigger = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync')!;
    const fired = await stack.runtime.fireTrigger(trigger.uid);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect((fired.value as { outcome: string }).outcome).toBe('ok');
  }, 120_000);
});
