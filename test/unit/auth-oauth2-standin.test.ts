/**
 * The OAuth2 stand-in behaves like apps-script-oauth2 v43 where the add-on depends on it. Runs the
 * stand-in as the runtime does (esbuild transform, own vm context) with one small fake per
 * service; expected values come from the library's documented behaviour and node:crypto.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const STANDIN = path.resolve(__dirname, '../../dev/gas-runtime/libraries/oauth2-standin.ts');
const compiled = transformSync(readFileSync(STANDIN, 'utf8'), { loader: 'ts', target: 'es2020' }).code;

class FakeProperties {
  readonly values = new Map<string, string>();
  getProperty(k: string) {
    return this.values.get(k) ?? null;
  }
  setProperty(k: string, v: string) {
    this.values.set(k, v);
    return this;
  }
  deleteProperty(k: string) {
    this.values.delete(k);
    return this;
  }
  getProperties() {
    return Object.fromEntries(this.values);
  }
}

class FakeCache {
  readonly values = new Map<string, string>();
  get(k: string) {
    return this.values.get(k) ?? null;
  }
  put(k: string, v: string) {
    this.values.set(k, v);
  }
  remove(k: string) {
    this.values.delete(k);
  }
}

class FakeLock {
  held = false;
  events: string[] = [];
  hasLock() {
    return this.held;
  }
  waitLock() {
    this.held = true;
    this.events.push('wait');
  }
  releaseLock() {
    this.held = false;
    this.events.push('release');
  }
}

interface Fetch {
  url: string;
  options: { method: string; headers: Record<string, string>; payload: Record<string, string> };
}

function loadLibrary(answers: Array<{ status: number; body: unknown }>, nowSeconds: { value: number }) {
  const fetches: Fetch[] = [];
  const stateArgs: Record<string, string>[] = [];
  const toBytes = (v: unknown) =>
    typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from((v as number[]).map((b) => b & 0xff));
  const RealDate = Date;
  const FakeDate = class extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(nowSeconds.value * 1000);
      else super(...(args as [number]));
    }
  };
  const context = vm.createContext({
    Date: FakeDate,
    ScriptApp: {
      getScriptId: () => 'script-123',
      newStateToken() {
        const args: Record<string, string> = {};
        const builder = {
          withMethod: (m: string) => {
            args['__method'] = m;
            return builder;
          },
          withArgument: (k: string, v: string) => {
            args[k] = String(v);
            return builder;
          },
          withTimeout: () => builder,
          createToken: () => {
            stateArgs.push(args);
            return `state-${stateArgs.length}`;
          },
        };
        return builder;
      },
    },
    UrlFetchApp: {
      fetch(url: string, options: Fetch['options']) {
        fetches.push({ url, options });
        const answer = answers.shift() ?? { status: 500, body: { error: 'no_answer_scripted' } };
        return { getResponseCode: () => answer.status, getContentText: () => JSON.stringify(answer.body) };
      },
    },
    Utilities: {
      DigestAlgorithm: { SHA_256: 'SHA_256' },
      Charset: { US_ASCII: 'US_ASCII' },
      computeDigest: (_a: string, value: string) =>
        [...createHash('sha256').update(value, 'ascii').digest()].map((b) => (b > 127 ? b - 256 : b)),
      base64EncodeWebSafe: (v: unknown) => toBytes(v).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
      base64Encode: (v: unknown) => toBytes(v).toString('base64'),
    },
  });
  vm.runInContext(compiled, context);
  const OAuth2 = context as unknown as {
    createService(name: string): Record<string, (...args: unknown[]) => unknown>;
    getRedirectUri(id?: string): string;
    getServiceNames(store: FakeProperties): string[];
    TOKEN_FORMAT: { JSON: string };
  };
  return { OAuth2, fetches, stateArgs };
}

function configured(
  OAuth2: ReturnType<typeof loadLibrary>['OAuth2'],
  props: FakeProperties,
  cache: FakeCache,
  lock: FakeLock,
) {
  const service = OAuth2.createService('shop');
  for (const [method, arg] of [
    ['setAuthorizationBaseUrl', 'https://auth.example/authorize'],
    ['setTokenUrl', 'https://auth.example/token'],
    ['setClientId', 'client-1'],
    ['setClientSecret', 'secret-1'],
    ['setCallbackFunction', 'authCallback'],
    ['setPropertyStore', props],
    ['setCache', cache],
    ['setLock', lock],
  ] as const) {
    service[method]!(arg);
  }
  return service;
}

const NOW = 1_700_000_000;

describe('authorization URL: PKCE verifier inside the state token, S256 challenge computed by the library', () => {
  it('sends BASE64URL(SHA256(verifier)) without padding, the method, scope and params; keeps the verifier out of the URL', () => {
    const { OAuth2, stateArgs } = loadLibrary([], { value: NOW });
    const service = configured(OAuth2, new FakeProperties(), new FakeCache(), new FakeLock());
    const verifier = 'a'.repeat(30) + 'b'.repeat(30);
    service['setScope']!(['x:read', 'offline_access']);
    service['setCodeVerififer']!(verifier);
    service['setCodeChallengeMethod']!('S256');
    service['setRedirectUri']!('http://127.0.0.1:9/usercallback');
    const url = new URL(service['getAuthorizationUrl']!() as string);
    expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('x:read offline_access');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:9/usercallback');
    expect(url.toString()).not.toContain(verifier);
    expect(stateArgs[0]).toMatchObject({ __method: 'authCallback', serviceName: 'shop', codeVerifier_: verifier });
  });

  it('defaults the redirect URI to the script.google.com usercallback of the script', () => {
    const { OAuth2 } = loadLibrary([], { value: NOW });
    expect(OAuth2.getRedirectUri()).toBe('https://script.google.com/macros/d/script-123/usercallback');
  });
});

describe('handleCallback: code exchange with the verifier, payload handler and token headers', () => {
  it('stores the raw token response plus expiresAt under oauth2.<name>', () => {
    const { OAuth2, fetches } = loadLibrary(
      [{ status: 200, body: { access_token: 'AT1', refresh_token: 'RT1', expires_in: 3600 } }],
      { value: NOW },
    );
    const props = new FakeProperties();
    const service = configured(OAuth2, props, new FakeCache(), new FakeLock());
    service['setTokenHeaders']!({ Authorization: 'Basic abc' });
    service['setTokenPayloadHandler']!((p: Record<string, string>) => {
      const { client_secret: _drop, ...rest } = p;
      return rest;
    });
    const granted = service['handleCallback']!({ parameter: { code: 'C1', codeVerifier_: 'V1' } });
    expect(granted).toBe(true);
    expect(fetches[0]!.options.headers).toEqual({ Accept: 'application/json', Authorization: 'Basic abc' });
    expect(fetches[0]!.options.payload).toEqual({
      code: 'C1',
      client_id: 'client-1',
      redirect_uri: 'https://script.google.com/macros/d/script-123/usercallback',
      grant_type: 'authorization_code',
      code_verifier: 'V1',
    });
    expect(JSON.parse(props.getProperty('oauth2.shop')!)).toEqual({
      access_token: 'AT1',
      refresh_token: 'RT1',
      expires_in: 3600,
      expiresAt: NOW + 3600,
    });
    expect(OAuth2.getServiceNames(props)).toEqual(['shop']);
  });

  it('access_denied returns false; other errors throw "Error authorizing token"', () => {
    const { OAuth2 } = loadLibrary([], { value: NOW });
    const service = configured(OAuth2, new FakeProperties(), new FakeCache(), new FakeLock());
    expect(service['handleCallback']!({ parameter: { error: 'access_denied' } })).toBe(false);
    expect(() => service['handleCallback']!({ parameter: { error: 'server_error' } })).toThrow(
      'Error authorizing token: server_error',
    );
  });

  it('an error answer throws "Error retrieving token: <error>, <description>"', () => {
    const { OAuth2 } = loadLibrary(
      [{ status: 400, body: { error: 'invalid_grant', error_description: 'expired code' } }],
      { value: NOW },
    );
    const service = configured(OAuth2, new FakeProperties(), new FakeCache(), new FakeLock());
    expect(() => service['handleCallback']!({ parameter: { code: 'C' } })).toThrow(
      'Error retrieving token: invalid_grant, expired code',
    );
  });
});

describe('token lifetime: 60 s buffer, refresh under the lock, rotation kept', () => {
  function connected(
    answers: Array<{ status: number; body: unknown }>,
    clock: { value: number },
    token: Record<string, unknown>,
  ) {
    const lib = loadLibrary(answers, clock);
    const props = new FakeProperties();
    props.setProperty('oauth2.shop', JSON.stringify(token));
    const lock = new FakeLock();
    const cache = new FakeCache();
    return { ...lib, props, cache, lock, service: configured(lib.OAuth2, props, cache, lock) };
  }

  it('a token with more than 60 s left is used without any request', () => {
    const clock = { value: NOW };
    const { service, fetches } = connected([], clock, {
      access_token: 'AT1',
      refresh_token: 'RT1',
      expiresAt: NOW + 61,
    });
    expect(service['getAccessToken']!()).toBe('AT1');
    expect(fetches).toEqual([]);
  });

  it('inside the 60 s window it refreshes once under the lock and saves the rotated refresh token', () => {
    const clock = { value: NOW };
    const { service, fetches, props, lock } = connected(
      [{ status: 200, body: { access_token: 'AT2', refresh_token: 'RT2', expires_in: 3600 } }],
      clock,
      { access_token: 'AT1', refresh_token: 'RT1', expiresAt: NOW + 59 },
    );
    expect(service['getAccessToken']!()).toBe('AT2');
    expect(fetches).toHaveLength(1);
    expect(fetches[0]!.options.payload).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'RT1' });
    expect(JSON.parse(props.getProperty('oauth2.shop')!)).toMatchObject({
      access_token: 'AT2',
      refresh_token: 'RT2',
      expiresAt: NOW + 3600,
    });
    expect(lock.events).toEqual(['wait', 'release']);
  });

  it('keeps the old refresh token when the response omits one', () => {
    const clock = { value: NOW };
    const { service, props } = connected([{ status: 200, body: { access_token: 'AT2', expires_in: 3600 } }], clock, {
      access_token: 'AT1',
      refresh_token: 'RT1',
      expiresAt: NOW - 10,
    });
    expect(service['hasAccess']!()).toBe(true);
    expect(JSON.parse(props.getProperty('oauth2.shop')!).refresh_token).toBe('RT1');
  });

  it('re-reads the stored token after taking the lock: another execution already refreshed → no request', () => {
    const clock = { value: NOW };
    const { service, fetches, props, cache, lock } = connected([], clock, {
      access_token: 'AT1',
      refresh_token: 'RT1',
      expiresAt: NOW - 10,
    });
    service['getToken']!(); // this execution has read the expired token
    const originalWait = lock.waitLock.bind(lock);
    lock.waitLock = () => {
      // While this execution waited, the other one saved its refreshed token (property and cache).
      const refreshed = JSON.stringify({ access_token: 'AT9', refresh_token: 'RT9', expiresAt: NOW + 3600 });
      props.setProperty('oauth2.shop', refreshed);
      cache.put('oauth2.shop', refreshed);
      originalWait();
    };
    expect(service['hasAccess']!()).toBe(true);
    expect(fetches).toEqual([]);
    expect(service['getAccessToken']!()).toBe('AT9');
  });

  it('a refused refresh: hasAccess is false, the error is kept for getLastError, the old token stays', () => {
    const clock = { value: NOW };
    const { service, props, lock } = connected(
      [{ status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } }],
      clock,
      {
        access_token: 'AT1',
        refresh_token: 'RT1',
        expiresAt: NOW - 10,
      },
    );
    expect(service['hasAccess']!()).toBe(false);
    expect((service['getLastError']!() as Error).message).toBe('Error retrieving token: invalid_grant, revoked');
    expect(JSON.parse(props.getProperty('oauth2.shop')!).refresh_token).toBe('RT1');
    expect(lock.held).toBe(false);
    expect(() => service['getAccessToken']!()).toThrow('Access not granted or expired.');
  });

  it('reset removes the token from properties and cache', () => {
    const clock = { value: NOW };
    const { service, props } = connected([], clock, {
      access_token: 'AT1',
      refresh_token: 'RT1',
      expiresAt: NOW + 3600,
    });
    service['getToken']!();
    service['reset']!();
    expect(props.getProperty('oauth2.shop')).toBeNull();
    expect(service['getToken']!(true)).toBeNull();
  });
});
