/**
 * The harness against an emulator it did not start (`npm run demo -- --api URL --state DIR`): the
 * client credentials come from the emulator's control API, each runtime's loopback callback is
 * added to the registered redirect URIs, and nothing the emulator holds (grants, data) is reset,
 * so the next run with the same state continues the same connection. Needs dist/ (npm run build).
 */
import { connectionToken } from '../../dev/harness/tokens';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { sidebarConnection, tokenRequestStats } from '../../dev/harness/inspect';

interface Grants {
  connections: Array<{ user: string; store_id: string; state: string }>;
}

let emulator: RunningEmulator;
let stateDir: string;
let otherStateDir: string;
/** The first run's callback, which later runs must not unregister. */
let firstRedirectUri = '';
const stacks: Stack[] = [];
const savedEnv = { id: process.env.MA_CLIENT_ID, secret: process.env.MA_CLIENT_SECRET };

beforeAll(async () => {
  // The credentials must come from the emulator, not from the environment.
  delete process.env.MA_CLIENT_ID;
  delete process.env.MA_CLIENT_SECRET;
  emulator = await startEmulator({ orders: 6, seed: 21 });
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'ma-external-'));
  otherStateDir = await mkdtemp(path.join(os.tmpdir(), 'ma-external-other-'));
});
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
});
afterAll(async () => {
  await emulator?.close();
  await rm(stateDir, { recursive: true, force: true });
  await rm(otherStateDir, { recursive: true, force: true });
  if (savedEnv.id !== undefined) process.env.MA_CLIENT_ID = savedEnv.id;
  if (savedEnv.secret !== undefined) process.env.MA_CLIENT_SECRET = savedEnv.secret;
});

async function stackOn(dir: string): Promise<Stack> {
  const stack = await startStack({ apiUrl: emulator.url, stateDir: dir });
  stacks.push(stack);
  return stack;
}

async function checkAsTrigger(stack: Stack) {
  return stack.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
}

async function grants(stack: Stack): Promise<Grants> {
  return (await stack.control('grants')) as Grants;
}

describe('a stack on an emulator that is already running', () => {
  it('configures the deployment with the emulator client and registers its callback; connecting works', async () => {
    const stack = await stackOn(stateDir);
    expect(stack.emulator).toBeNull();
    const script = stack.runtime.properties.script;
    expect(script.get('MA_CLIENT_ID')).toBe(emulator.clientId);
    expect(script.get('MA_CLIENT_SECRET')).toBe(emulator.clientSecret);
    expect(script.get('MA_REDIRECT_URI')).toBe(stack.redirectUri);
    const client = (await stack.control('client')) as { redirect_uris: string[] };
    expect(client.redirect_uris).toContain(stack.redirectUri);
    firstRedirectUri = stack.redirectUri;

    expect((await stack.connect()).outcome).toBe('connected');
    expect((await checkAsTrigger(stack)).value).toMatchObject({ ok: true, storeId: emulator.state.defaultStoreId });
    await stack.runtime.saveState(stateDir);
  });

  it('the next run with the same state continues the same connection: no new authorization, no reset', async () => {
    const before = await tokenRequestStats(jsonControl);
    const stack = await stackOn(stateDir);
    expect(connectionToken(stack.runtime)).not.toBeNull();
    // The new runtime listens on its own callback; the earlier one stays registered too.
    const client = (await stack.control('client')) as { redirect_uris: string[] };
    expect(client.redirect_uris).toEqual(expect.arrayContaining([firstRedirectUri, stack.redirectUri]));

    const check = await checkAsTrigger(stack);
    expect(check.value).toMatchObject({ ok: true, storeId: emulator.state.defaultStoreId });
    expect(await sidebarConnection(stack.runtime)).toMatchObject({
      state: 'connected',
      storeId: emulator.state.defaultStoreId,
    });
    const after = await tokenRequestStats(jsonControl);
    expect(after.byGrantType['authorization_code'] ?? 0).toBe(before.byGrantType['authorization_code'] ?? 0);
    expect((await grants(stack)).connections.filter((c) => c.state === 'active')).toHaveLength(1);
    await stack.runtime.saveState(stateDir);
  });

  it('another spreadsheet connecting through the same emulator does not wipe the first one’s connection', async () => {
    const other = await stackOn(otherStateDir);
    expect((await other.connect()).outcome).toBe('connected');
    await other.close();
    stacks.splice(stacks.indexOf(other), 1);

    const first = await stackOn(stateDir);
    expect((await checkAsTrigger(first)).value).toMatchObject({ ok: true, storeId: emulator.state.defaultStoreId });
  });
});

/** The emulator's control API, for readers that take a control function. */
async function jsonControl(controlPath: string, body?: unknown): Promise<unknown> {
  const res = await fetch(
    `${emulator.url}/_emulator/${controlPath}`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`${controlPath}: ${res.status}`);
  return res.json();
}
