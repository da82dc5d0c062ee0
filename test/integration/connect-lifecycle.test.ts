/**
 * The connection's lifecycle: every row of spec 3.2 (connection states) and 5.8 (authentication
 * failures) ends in the right state with the right message, and never touches the sheets.
 * Built add-on in the local runtime against the emulator over HTTP; needs dist/ (npm run build).
 */
import { connectionToken, installConnectionToken } from '../../dev/harness/tokens';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let stack: Stack;
let storeA: { id: string; name: string };
let storeB: { id: string; name: string };

beforeAll(async () => {
  stack = await startStack({ orders: 8, seed: 11 });
  const stores = ((await stack.control('truth/stores')) as { data: Array<{ id: string; name: string }> }).data;
  expect(stores.length).toBeGreaterThanOrEqual(2);
  [storeA, storeB] = [stores[0]!, stores[1]!];
  // Sheets with data, so each row can prove they stay as they were.
  expect((await stack.connect({ storeId: storeA.id })).outcome).toBe('connected');
  const sync = await stack.runtime.run('onScheduledSync', [], { authMode: 'FULL' });
  expect(sync.ok).toBe(true);
  expect(Object.keys(stack.runtime.exportJson().sheets).length).toBeGreaterThan(0);
});
afterAll(async () => {
  await stack?.close();
});

/** A fresh, working connection to store A for each row. */
beforeEach(async () => {
  await stack.control('client/disable', { disabled: false });
  const result = await stack.connect({ storeId: storeA.id });
  expect(result.outcome).toBe('connected');
});

async function checkAsTrigger() {
  return stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
}

/** The sheets' values, written by the sync in beforeAll. */
async function sheetsSnapshot(): Promise<string> {
  return JSON.stringify(stack.runtime.exportJson().sheets);
}

async function installToken(token: Record<string, unknown>): Promise<void> {
  // Disconnect first so no cached copy of the previous token remains, then store the minted one
  // in the library's format (raw token response plus expiresAt in seconds).
  const disconnected = await stack.runtime.run('disconnectStore', [], { authMode: 'FULL' });
  expect(disconnected.ok).toBe(true);
  const expiresAt = Math.floor(stack.runtime.clock.now() / 1000) + Number(token['expires_in']);
  // Left as the callback leaves a connection: the next execution with the document adopts it.
  installConnectionToken(stack.runtime, { ...token, expiresAt });
}

describe('spec 3.2 — authorization flow completed: the connection points at the picked store', () => {
  it('is connected to store A and reads it', async () => {
    const check = await checkAsTrigger();
    expect(check.value).toMatchObject({ ok: true, storeId: storeA.id });
    expect(await sidebarConnection(stack.runtime)).toMatchObject({
      state: 'connected',
      storeId: storeA.id,
      message: null,
    });
  });
});

describe('spec 3.2 — the same merchant user picks a different store', () => {
  it('elsewhere: this spreadsheet learns its connection now reads another store and is told to reconnect', async () => {
    await stack.control('grants/switch-store', { store: storeB.id });
    const sheetsBefore = await sheetsSnapshot();
    const check = await checkAsTrigger();
    expect(check.ok).toBe(false);
    const seen = await sidebarConnection(stack.runtime);
    expect(seen.state).toBe('store_changed');
    expect(seen.action).toBe('reconnect');
    expect(seen.message).toContain('This connection now reads another store');
    expect(seen.message).toContain('connect the other store with a different merchant user');
    expect(seen.message).toContain('Your data in the sheets is kept');
    expect(await sheetsSnapshot()).toBe(sheetsBefore);
  });

  it('here, while the sheets hold store A: refused, nothing kept of store B, both stores named', async () => {
    // The sync in beforeAll tagged the sheets with store A.
    expect(stack.runtime.properties.document.get('ma.storeTag')).toBe(storeA.id);
    const sheetsBefore = await sheetsSnapshot();
    const result = await stack.connect({ storeId: storeB.id });
    expect(result.outcome).toBe('store_mismatch');
    expect(result.html).toContain(storeA.name);
    expect(result.html).toContain(storeB.name);
    expect(connectionToken(stack.runtime)).toBeNull();
    const seen = await sidebarConnection(stack.runtime);
    expect(seen.state).toBe('store_changed');
    expect(seen.message).toContain(`pick "${storeA.name}"`);
    expect(await sheetsSnapshot()).toBe(sheetsBefore);
    // Reconnecting the sheets' own store resumes.
    expect((await stack.connect({ storeId: storeA.id })).outcome).toBe('connected');
    expect((await sidebarConnection(stack.runtime)).state).toBe('connected');
  });
});

describe('spec 3.2/5.8 — merchant disconnects the application: 401 grant_revoked', () => {
  it('with a fresh token: revoked, Reconnect offered, no refresh attempted, sheets untouched', async () => {
    const sheetsBefore = await sheetsSnapshot();
    await stack.control('grants/revoke', {});
    const before = await tokenRequestStats(stack.control);
    const check = await checkAsTrigger();
    expect(check.value).toMatchObject({ ok: false, code: 'grant_revoked' });
    expect(await tokenRequestStats(stack.control)).toEqual(before);
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'revoked', action: 'reconnect' });
    expect(seen.message).toContain('was turned off in Merchant Analytics (Settings → Connected apps)');
    expect(seen.message).toContain('Your data in the sheets is kept. Click Reconnect to resume syncing.');
    expect(await sheetsSnapshot()).toBe(sheetsBefore);
    // A broken connection makes no further requests until the merchant reconnects.
    const again = await checkAsTrigger();
    expect(again.counts.requests).toEqual([]);
  });

  it('the workspace has no plan any more: the same revoked state', async () => {
    await stack.control('grants/revoke', { reason: 'no_plan' });
    await checkAsTrigger();
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'revoked', action: 'reconnect' });
    expect(seen.message).toContain('no longer has a plan');
  });

  it('noticed at a refresh (access token already expired): still revoked, not a generic failure', async () => {
    await stack.control('grants/revoke', {});
    await stack.advanceClocks(HOUR_MS + 60_000);
    const check = await checkAsTrigger();
    expect(check.ok).toBe(false);
    expect((await sidebarConnection(stack.runtime)).state).toBe('revoked');
  });
});

describe('spec 3.2 — no use for 90 days: the connection lapses', () => {
  it('lapsed, with a message naming the 90 days and Reconnect', async () => {
    await stack.advanceClocks(91 * DAY_MS);
    const check = await checkAsTrigger();
    expect(check.ok).toBe(false);
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(seen.message).toContain('not used for 90 days');
    expect(seen.message).toContain('Your data in the sheets is kept');
  });
});

describe('spec 3.2/5.8 — application not provisioned or disabled: 403 client_not_authorized', () => {
  it('with a fresh token: a message for whoever operates the deployment', async () => {
    await stack.control('client/disable', { disabled: true });
    const check = await checkAsTrigger();
    expect(check.value).toMatchObject({ ok: false, code: 'client_not_authorized' });
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
    expect(seen.message).toContain('contact whoever set up Merchant Analytics for your organisation');
  });

  it('once the operator re-enables the application, the spreadsheet works again without reconnecting', async () => {
    await stack.control('client/disable', { disabled: true });
    await checkAsTrigger();
    expect((await sidebarConnection(stack.runtime)).state).toBe('operator_problem');
    await stack.control('client/disable', { disabled: false });
    // The next run that renews access (scheduled sync, sidebar) asks the API whether it was fixed.
    const run = await stack.runtime.run('onScheduledSync', [], { authMode: 'FULL' });
    expect(run.ok).toBe(true);
    expect(await sidebarConnection(stack.runtime)).toMatchObject({
      state: 'connected',
      storeId: storeA.id,
      message: null,
    });
    expect((await checkAsTrigger()).value).toMatchObject({ ok: true });
  });

  it('the sidebar notices the fix by itself: opened again after re-enabling, it shows connected', async () => {
    await stack.control('client/disable', { disabled: true });
    await checkAsTrigger();
    expect(await sidebarConnection(stack.runtime)).toMatchObject({
      state: 'operator_problem',
      action: 'contact_operator',
    });
    // Still disabled: opening the sidebar again asks the API and keeps the problem.
    expect((await sidebarConnection(stack.runtime)).state).toBe('operator_problem');
    await stack.control('client/disable', { disabled: false });
    // No scheduled run and no reconnect in between: only getSidebarState.
    expect(await sidebarConnection(stack.runtime)).toMatchObject({
      state: 'connected',
      storeId: storeA.id,
      message: null,
    });
    expect((await checkAsTrigger()).value).toMatchObject({ ok: true });
  });

  it('the sidebar notices the fix after the access token expired too (the recheck renews it)', async () => {
    await stack.control('client/disable', { disabled: true });
    await checkAsTrigger();
    await stack.advanceClocks(HOUR_MS + 60_000);
    expect((await sidebarConnection(stack.runtime)).state).toBe('operator_problem');
    await stack.control('client/disable', { disabled: false });
    expect(await sidebarConnection(stack.runtime)).toMatchObject({ state: 'connected', storeId: storeA.id });
  });

  it('the grant moved to another store while the client was disabled: the sidebar asks to reconnect, not to wait for the operator [soak seed 1]', async () => {
    await stack.control('client/disable', { disabled: true });
    await checkAsTrigger();
    expect((await sidebarConnection(stack.runtime)).state).toBe('operator_problem');
    await stack.control('grants/switch-store', {});
    await stack.control('client/disable', { disabled: false });
    // The held access token is answered 401 invalid_token (spec 5.8: refresh or re-run the flow);
    // the refresh is refused, so the sidebar must say Reconnect — no scheduled run will come to say it.
    const seen = await sidebarConnection(stack.runtime);
    expect(seen.state).not.toBe('operator_problem');
    expect(seen.action).toBe('reconnect');
    const grants = (await stack.control('grants')) as { connections: Array<{ state: string; store_id: string }> };
    expect(grants.connections.filter((c) => c.state === 'active').map((c) => c.store_id)).not.toContain(storeA.id);
  });

  it('at a refresh (the token endpoint refuses the client): the same operator message', async () => {
    await stack.control('client/disable', { disabled: true });
    await stack.advanceClocks(HOUR_MS + 60_000);
    const check = await checkAsTrigger();
    expect(check.ok).toBe(false);
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'operator_problem', action: 'contact_operator' });
  });
});

describe('spec 5.8 — missing_token: nothing is sent without a token', () => {
  it('a spreadsheet that is not connected makes no API request and says Connect', async () => {
    await stack.runtime.run('disconnectStore', [], { authMode: 'FULL' });
    const check = await checkAsTrigger();
    expect(check.ok).toBe(false);
    expect(check.counts.requests).toEqual([]);
    const seen = await sidebarConnection(stack.runtime);
    expect(seen.state).toBe('not_connected');
  });
});

describe('spec 5.8 — invalid_token_claims: the token is not bound to a store', () => {
  it('invalid_claims, re-run the flow', async () => {
    const minted = (await stack.control('tokens', { claims: 'none' })) as Record<string, unknown>;
    await installToken(minted);
    const check = await checkAsTrigger();
    expect(check.value).toMatchObject({ ok: false, code: 'invalid_token_claims' });
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'invalid_claims', action: 'reconnect' });
    expect(seen.message).toContain('Click Reconnect and pick the store again');
  });
});

describe('spec 5.8 — insufficient_scope: the token lacks the scope an endpoint needs', () => {
  it('asks the merchant to reconnect and approve every permission, not the operator', async () => {
    const minted = (await stack.control('tokens', { scope: 'orders:read offline_access', store: storeA.id })) as Record<
      string,
      unknown
    >;
    await installToken(minted);
    const check = await checkAsTrigger();
    expect(check.value).toMatchObject({ ok: false, code: 'insufficient_scope' });
    const seen = await sidebarConnection(stack.runtime);
    expect(seen).toMatchObject({ state: 'missing_scope', action: 'reconnect' });
    expect(seen.message).toContain('Click Reconnect and approve all of them');
    expect(seen.message).not.toMatch(/operator|whoever set up/);
  });

  it('a sync short of a scope says the same, though /account answers; a reconnect that grants every scope clears it', async () => {
    const minted = (await stack.control('tokens', { scope: 'store:read offline_access', store: storeA.id })) as Record<
      string,
      unknown
    >;
    await installToken(minted);
    const sync = await stack.runtime.run('onScheduledSync', [], { authMode: 'FULL' });
    expect(sync.ok).toBe(true);
    expect(await sidebarConnection(stack.runtime)).toMatchObject({ state: 'missing_scope', action: 'reconnect' });
    const reconnected = await stack.connect({ storeId: storeA.id });
    expect(reconnected.outcome, reconnected.html.slice(0, 400)).toBe('connected');
    expect(await sidebarConnection(stack.runtime)).toMatchObject({ state: 'connected' });
    expect((await checkAsTrigger()).value).toMatchObject({ ok: true, storeId: storeA.id });
  });
});

describe('Disconnect resets the tokens', () => {
  it('removes the stored token and the connection; reconnecting works again', async () => {
    const result = await stack.runtime.run('disconnectStore', [], { authMode: 'FULL' });
    expect(result.ok).toBe(true);
    expect(connectionToken(stack.runtime)).toBeNull();
    expect((await sidebarConnection(stack.runtime)).state).toBe('not_connected');
    const reconnected = await stack.connect({ storeId: storeA.id });
    expect(reconnected.outcome, `callback answered ${reconnected.status}: ${reconnected.html.slice(0, 600)}`).toBe(
      'connected',
    );
    expect((await checkAsTrigger()).value).toMatchObject({ ok: true, storeId: storeA.id });
  });
});
