/** Shared by the renewal tests: a connected, caught-up stack, its stored token, and the emulator's exchanges. */
import { expect } from 'vitest';
import { startStack, type Stack, type StackOptions } from '../../dev/harness/index';
import { sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';
import { oauth2Source } from '../../dev/harness/libraries';
import { connectionToken } from '../../dev/harness/tokens';
import { scheduleTrigger, syncUntilCaughtUp } from './sync-support';

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
export const TOKEN_PATH = '/api/auth/oauth2/token';
/** The runtime's default user, who owns the schedule trigger. */
export const USER = 'user@example.com';
/** The words of an interrupted renewal's message. */
export const INTERRUPTED = 'was lost while its access was being renewed';

export type StoredToken = { refresh_token: string; expiresAt: number; renewalStartedAt?: number };

/** The real OAuth2 library, connected, the schedule set and the sheets caught up. */
export async function connectedStack(options: StackOptions): Promise<Stack> {
  const stack = await startStack(options);
  expect(oauth2Source(stack.runtime.libraryFiles)).toBe('real');
  expect((await stack.connect()).outcome).toBe('connected');
  await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
  return stack;
}

/** Reconnects when an earlier case left the connection broken. */
export async function connectedAgain(stack: Stack): Promise<void> {
  if ((await sidebarConnection(stack.runtime)).state !== 'connected')
    expect((await stack.connect()).outcome).toBe('connected');
}

export function storedToken(stack: Stack): StoredToken {
  const token = connectionToken<StoredToken>(stack.runtime);
  if (!token) throw new Error('no stored token');
  return token;
}

/** Both clocks forward until the stored access token has `leftMs` to live. */
export async function leaveAccessTokenFor(stack: Stack, leftMs: number): Promise<void> {
  await stack.advanceClocks(storedToken(stack).expiresAt * 1000 - stack.runtime.clock.now() - leftMs);
}

/** Refresh-token exchanges the emulator has answered. */
export async function refreshes(stack: Stack): Promise<number> {
  return (await tokenRequestStats(stack.control)).byGrantType['refresh_token'] ?? 0;
}

/** The token endpoint's answer to a refresh with `refreshToken`, over HTTP, as the add-on asks. */
export async function exchange(stack: Stack, refreshToken: string): Promise<number> {
  const script = stack.runtime.properties.script;
  const basic = Buffer.from(`${script.get('MA_CLIENT_ID')}:${script.get('MA_CLIENT_SECRET')}`).toString('base64');
  const response = await fetch(`${stack.apiUrl}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return response.status;
}
