/**
 * A gateway in front of the token endpoint answers a renewal with an HTML 502: the emulator says
 * nothing was spent (no exchange, the refresh token still valid). The renewal's mark must not then
 * turn a later refusal for another reason (the refresh token rotated away elsewhere, the same user
 * moving the connection to another store) into "the run was stopped while renewing". The add-on
 * tries once more at once, and a run that finds a mark renews at once: a refresh token that still
 * works clears it. When the answers stay unreadable, the message says what is known. Built bundle,
 * real OAuth2 library, emulator over HTTP; needs dist/ (npm run build).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { sidebarConnection } from '../../dev/harness/inspect';
import { compareWithTruth, scheduleTrigger, syncUntilCaughtUp } from './sync-support';
import {
  connectedAgain,
  connectedStack,
  exchange,
  INTERRUPTED,
  leaveAccessTokenFor,
  MINUTE_MS,
  refreshes,
  storedToken,
  TOKEN_PATH,
} from './renewal-support';

/** More gateway errors than one run's renewals: the gateway stays down for the run, then is cleared. */
const GATEWAY_DOWN = 50;
const UNREAD = 'a renewal of its access got no readable answer';

let stack: Stack;

const fire = async () => stack.runtime.fireTrigger(await scheduleTrigger(stack), {});

/**
 * A scheduled run renews at its start (its access token would not last the run) and meets
 * `gatewayErrors` HTML 502s; the run goes on with the access token it has. No sidebar is opened
 * afterwards: scheduled runs alone, as for a merchant who does not open the spreadsheet.
 */
async function renewalMeetsGatewayErrors(gatewayErrors: number): Promise<{ exchanged: number }> {
  await leaveAccessTokenFor(stack, 3 * MINUTE_MS);
  const before = storedToken(stack);
  const exchangesBefore = await refreshes(stack);
  await stack.control('faults', { status: 502, body: 'html', count: gatewayErrors, path_prefix: TOKEN_PATH });
  const run = await fire();
  expect(run.ok).toBe(true);
  expect(run.value).toMatchObject({ outcome: 'ok' });
  await stack.control('faults/clear', {});
  const exchanged = (await refreshes(stack)) - exchangesBefore;
  if (exchanged === 0) expect(storedToken(stack).refresh_token).toBe(before.refresh_token);
  return { exchanged };
}

beforeAll(async () => {
  stack = await connectedStack({ orders: 40, seed: 29 });
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

beforeEach(() => connectedAgain(stack));

describe('a renewal a gateway answered unreadably (nothing spent)', () => {
  it('a scheduled run whose token has over 45 minutes left leaves no mark, and a later rotation elsewhere reads as access ended', async () => {
    // Fifty minutes left: the run renews nothing, so the gateway error cannot touch the stored token.
    await leaveAccessTokenFor(stack, 50 * MINUTE_MS);
    await stack.control('faults', { status: 502, body: 'html', count: 1, path_prefix: TOKEN_PATH });
    expect((await fire()).value).toMatchObject({ outcome: 'ok' });
    await stack.control('faults/clear', {});
    expect(storedToken(stack).renewalStartedAt).toBeUndefined();
    expect(await exchange(stack, storedToken(stack).refresh_token)).toBe(200);
    await leaveAccessTokenFor(stack, 3 * MINUTE_MS);
    await fire();
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).not.toContain(INTERRUPTED);
    expect(shown.message).toContain('its access was ended or replaced in Merchant Analytics');
  }, 180_000);

  it('is tried once more at once: the run ends renewed, with no mark left', async () => {
    const before = storedToken(stack);
    const { exchanged } = await renewalMeetsGatewayErrors(1);
    // The emulator's truth: one exchange (the second try), and the token it issued is the one kept.
    expect(exchanged).toBe(1);
    expect(storedToken(stack).refresh_token).not.toBe(before.refresh_token);
    expect(await exchange(stack, before.refresh_token)).toBe(400);
    expect(storedToken(stack).renewalStartedAt).toBeUndefined();
  }, 180_000);

  it('a refresh token later rotated away elsewhere reads as access ended, not as an interrupted renewal', async () => {
    await renewalMeetsGatewayErrors(1);
    expect(await exchange(stack, storedToken(stack).refresh_token)).toBe(200);
    await leaveAccessTokenFor(stack, 3 * MINUTE_MS);
    const run = await fire();
    expect(run.value).toMatchObject({ outcome: 'error' });
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).not.toContain(INTERRUPTED);
    expect(shown.message).toContain('its access was ended or replaced in Merchant Analytics');
  }, 180_000);

  it('the same user moving the connection to another store reads as the move, and Reconnect restores the truth', async () => {
    await renewalMeetsGatewayErrors(1);
    await stack.control('grants/switch-store', {});
    await stack.advanceClocks(5 * MINUTE_MS);
    await fire();
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'store_changed', action: 'reconnect' });
    expect(shown.message).not.toContain(INTERRUPTED);
    expect((await stack.connect()).outcome).toBe('connected');
    await syncUntilCaughtUp(stack);
    const comparison = await compareWithTruth(stack);
    expect(comparison.missing).toEqual([]);
    expect(comparison.duplicates).toEqual([]);
    expect(comparison.mismatches).toEqual([]);
  }, 180_000);

  it('answers that stay unreadable leave a mark the next run checks at once: a working refresh token clears it', async () => {
    const { exchanged } = await renewalMeetsGatewayErrors(GATEWAY_DOWN);
    expect(exchanged).toBe(0);
    expect(storedToken(stack).renewalStartedAt).toEqual(expect.any(Number));
    // The access token still has minutes; the next run renews anyway, because of the mark.
    await stack.advanceClocks(MINUTE_MS);
    const exchangesBefore = await refreshes(stack);
    expect((await fire()).value).toMatchObject({ outcome: 'ok' });
    expect(await refreshes(stack)).toBe(exchangesBefore + 1);
    expect(storedToken(stack).renewalStartedAt).toBeUndefined();
  }, 180_000);

  it('a refusal after answers that stayed unreadable says what is known, not that the run was stopped', async () => {
    await renewalMeetsGatewayErrors(GATEWAY_DOWN);
    expect(storedToken(stack).renewalStartedAt).toEqual(expect.any(Number));
    expect(await exchange(stack, storedToken(stack).refresh_token)).toBe(200);
    await stack.advanceClocks(MINUTE_MS);
    await fire();
    const shown = await sidebarConnection(stack.runtime);
    expect(shown).toMatchObject({ state: 'lapsed', action: 'reconnect' });
    expect(shown.message).not.toContain(INTERRUPTED);
    expect(shown.message).toContain(UNREAD);
    expect(shown.message).toContain('or its access was ended or replaced in Merchant Analytics');
  }, 180_000);
});
