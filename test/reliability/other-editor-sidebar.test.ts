/**
 * What another editor's sidebar shows of the connector's choices (A connected, set the schedule
 * and opted in to failure e-mails; B is another editor): whose they are, that only A changes
 * them, and which buttons B gets. The server's refusals (attack-other-editor.test.ts) and the
 * sidebar's words agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionView, FailureNoticeView, SidebarState } from '../../src/contract/sidebar';
import { connectionButtons, connectedByText, failureNoticeText } from '../../src/sidebar/format';
import { scheduleTrigger } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';

const A = 'user@example.com';
const B = 'editor-b@example.com';
let s: ReliabilityStack;

async function sidebarOf(user: string): Promise<SidebarState> {
  const state = await s.runtime.run('getSidebarState', [], { user });
  expect(state.ok).toBe(true);
  return state.value as SidebarState;
}

beforeAll(async () => {
  s = await startReliabilityStack({ orders: 6, seed: 23 });
  await scheduleTrigger(s);
  expect((await s.runtime.run('setFailureNotices', [true])).value).toMatchObject({ on: true, email: A });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe("another editor's sidebar and the connector's failure e-mails", () => {
  it("B is shown who receives them and that only they can change them; B's change is refused in the same words; A can still turn them off", async () => {
    const notices = (await sidebarOf(B)).failureNotices as FailureNoticeView;
    expect(notices).toEqual({ on: true, email: A, yours: false });
    const shown = failureNoticeText(notices);
    expect(shown).toBe(`Failure e-mails go to ${A}, who switched them on: only they can change them or turn them off.`);
    const refused = await s.runtime.run('setFailureNotices', [false], { user: B });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toContain(shown);
    // Ground truth: the document's opt-in still names A.
    expect(JSON.parse(s.runtime.properties.document.get('ma.failure-notice') ?? '{}')).toEqual({ email: A });
    // A still sees them as their own and can turn them off.
    expect((await sidebarOf(A)).failureNotices).toEqual({ on: true, email: A });
    expect((await s.runtime.run('setFailureNotices', [false])).value).toEqual({ on: false, email: null });
    expect(s.runtime.properties.document.get('ma.failure-notice')).toBeFalsy();
  }, 60_000);
});

describe("another editor's sidebar and the connector's connection", () => {
  it("B gets Reconnect, not Disconnect, on A's connection, and is told only A can disconnect it; the server refuses B's Disconnect; A keeps Disconnect", async () => {
    const connection = (await sidebarOf(B)).connection as ConnectionView;
    expect(connection).toMatchObject({ state: 'connected', connectedBy: A, yours: false });
    expect(connectionButtons(connection)).toEqual({ connect: false, reconnect: true, disconnect: false });
    expect(connectedByText(connection)).toContain('only they can disconnect it');
    const refused = await s.runtime.run('disconnectStore', [], { user: B });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toContain(`The connection was made by ${A}: only they can disconnect it.`);
    expect(JSON.parse(s.runtime.properties.document.get('ma.connection') ?? '{}')).toMatchObject({
      state: 'connected',
      connectedBy: A,
    });
    // A keeps Disconnect on their own connection.
    const own = (await sidebarOf(A)).connection as ConnectionView;
    expect(own).toMatchObject({ connectedBy: A, yours: true });
    expect(connectionButtons(own)).toEqual({ connect: false, reconnect: false, disconnect: true });
  }, 60_000);
});
