/**
 * The demo client through the control API, for local tools that did not start the emulator:
 * GET /_emulator/client (id, secret, redirect URIs) and POST /_emulator/redirect-uris (adds
 * redirect URIs without resetting tokens, grants or data).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPkcePair, authorizeUrl } from '../../dev/emulator/oauth/oauth-client';
import { httpRequest } from '../../dev/emulator/oauth/scripted-merchant';
import { ALL_SCOPES, startHarness, type Harness } from './harness';

const STARTED_WITH = 'http://127.0.0.1:9/usercallback';

interface ClientView {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  disabled: boolean;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ orders: 5, products: 3, days: 10, redirectUris: [STARTED_WITH] });
});
afterAll(() => h.close());

/** Status of the authorize request for a redirect URI: 200 = consent page, 400 = refused page. */
async function authorizeStatus(redirectUri: string): Promise<number> {
  const url = authorizeUrl(h.emu.url, {
    clientId: h.emu.clientId,
    redirectUri,
    scope: ALL_SCOPES,
    state: 's',
    challenge: newPkcePair().challenge,
  });
  return (await httpRequest(url)).status;
}

describe('GET /_emulator/client', () => {
  it('answers the demo client id, its secret and the registered redirect URIs', async () => {
    const res = await h.control<ClientView>('/_emulator/client');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      client_id: h.emu.clientId,
      client_secret: h.emu.clientSecret,
      redirect_uris: [STARTED_WITH],
      disabled: false,
    });
  });

  it('is GET only', async () => {
    expect((await h.control('/_emulator/client', {})).status).toBe(405);
  });
});

describe('POST /_emulator/redirect-uris adds redirect URIs and resets nothing', () => {
  it('a new URI becomes usable on the authorize endpoint; the started-with one stays', async () => {
    const added = 'http://127.0.0.1:41234/usercallback';
    expect(await authorizeStatus(added)).toBe(400);
    const res = await h.control<{ added: string[]; redirect_uris: string[] }>('/_emulator/redirect-uris', {
      add: [added],
    });
    expect(res.status).toBe(200);
    expect(res.body.added).toEqual([added]);
    expect(res.body.redirect_uris).toEqual([STARTED_WITH, added]);
    expect(await authorizeStatus(added)).toBe(200);
    expect(await authorizeStatus(STARTED_WITH)).toBe(200);
  });

  it('keeps tokens, connections and data: the token minted before still reads the store', async () => {
    const ordersBefore = await h.truthOrders();
    const grantsBefore = (await h.control<{ connections: unknown[] }>('/_emulator/grants')).body.connections;
    expect(grantsBefore.length).toBeGreaterThan(0);
    expect(
      (await h.control('/_emulator/redirect-uris', { add: ['https://script.google.com/macros/d/ABC/usercallback'] }))
        .status,
    ).toBe(200);
    expect((await h.control<{ connections: unknown[] }>('/_emulator/grants')).body.connections).toEqual(grantsBefore);
    expect((await h.get('/api/v1/account')).status).toBe(200);
    expect(await h.truthOrders()).toEqual(ordersBefore);
  });

  it('adding a URI twice registers it once', async () => {
    const uri = 'http://127.0.0.1:5555/usercallback';
    await h.control('/_emulator/redirect-uris', { add: [uri, uri] });
    const again = await h.control<{ added: string[]; redirect_uris: string[] }>('/_emulator/redirect-uris', {
      add: [uri],
    });
    expect(again.body.added).toEqual([]);
    expect(again.body.redirect_uris.filter((u) => u === uri)).toHaveLength(1);
  });

  it.each([
    ['no add', {}],
    ['add not a list', { add: 'http://127.0.0.1:1/cb' }],
    ['an empty list', { add: [] }],
    ['a relative URI', { add: ['http://127.0.0.1:2/ok', '/usercallback'] }],
    ['a fragment', { add: ['http://127.0.0.1:3/cb#frag'] }],
    ['another scheme', { add: ['javascript:alert(1)'] }],
    ['a number', { add: [42] }],
    ['an unknown field', { add: ['http://127.0.0.1:4/cb'], replace: true }],
  ])('refuses %s with 400 and registers nothing', async (_name, body) => {
    const before = (await h.control<ClientView>('/_emulator/client')).body.redirect_uris;
    const res = await h.control('/_emulator/redirect-uris', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_parameter');
    expect((await h.control<ClientView>('/_emulator/client')).body.redirect_uris).toEqual(before);
  });

  it('is POST only', async () => {
    expect((await h.control('/_emulator/redirect-uris')).status).toBe(405);
  });

  it('a reset goes back to the redirect URIs the emulator was started with', async () => {
    await h.control('/_emulator/redirect-uris', { add: ['http://127.0.0.1:6/cb'] });
    expect((await h.control('/_emulator/reset', {})).status).toBe(200);
    expect((await h.control<ClientView>('/_emulator/client')).body.redirect_uris).toEqual([STARTED_WITH]);
  });
});
