/**
 * Several Google accounts signed in to one browser: Google runs the OAuth callback as the browser's
 * default account, not necessarily the one that clicked Connect (googleworkspace/apps-script-oauth2#277).
 * The runtime's callback then runs as that account (browserDefaultAccount). The callback page must say
 * what to do — open the spreadsheet in a window signed in to one account — instead of "already used",
 * and connect nobody: no tokens land in either account's storage. With one account, Connect works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

const CLICKER = 'user@example.com';
const DEFAULT_ACCOUNT = 'personal@example.com';

let stack: Stack;

/** Every property value of a user's store (the default user's is `properties.user`). */
function userStore(email: string): Record<string, string> {
  const store = email === CLICKER ? stack.runtime.properties.user : stack.runtime.properties.users[email];
  return store ? (store as unknown as { all(): Record<string, string> }).all() : {};
}

beforeAll(async () => {
  stack = await startStack({ orders: 5, seed: 9 });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('Connect with several Google accounts signed in', () => {
  it('the callback run as the browser’s default account says to use a window signed in to one account, and connects nobody; with one account Connect completes', async () => {
    stack.runtime.browserDefaultAccount = DEFAULT_ACCOUNT;
    const result = await stack.connect();
    expect(result.outcome).toBe('other_account');
    expect(result.html).toContain('signed in to one Google account');
    expect(result.html).not.toContain('already used');
    expect(JSON.stringify(userStore(DEFAULT_ACCOUNT))).not.toMatch(/access_token|refresh_token/);
    expect(JSON.stringify(userStore(CLICKER))).not.toMatch(/access_token|refresh_token/);
    const state = await stack.runtime.run('getSidebarState');
    expect((state.value as { connection: { state: string } }).connection.state).toBe('not_connected');

    // In a window with one account, Connect completes as the account that clicked.
    stack.runtime.browserDefaultAccount = null;
    expect((await stack.connect()).outcome).toBe('connected');
    expect(JSON.stringify(userStore(CLICKER))).toMatch(/refresh_token/);
  });
});
