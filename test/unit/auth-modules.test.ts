/** The pure parts of src/server/auth, against the spec and RFCs (7636, 6749 2.3.1, 8414). */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeAccount } from '../../src/server/auth/account-probe';
import { endpointsFromMetadata, defaultEndpoints } from '../../src/server/auth/discovery';
import { oauthErrorCode } from '../../src/server/auth/errors';
import { messageFor } from '../../src/server/auth/messages';
import { secureCodeVerifier } from '../../src/server/auth/pkce';
import { basicAuthorization, withoutClientSecret } from '../../src/server/auth/service';
import type { ConnectionStateName } from '../../src/server/auth/types';

const g = globalThis as unknown as { Utilities?: unknown; UrlFetchApp?: unknown };
afterEach(() => {
  delete g.Utilities;
  delete g.UrlFetchApp;
  vi.restoreAllMocks();
});

describe('PKCE verifier (RFC 7636 4.1) from Utilities.getUuid, not Math.random', () => {
  it('is 43–128 unreserved characters, differs each time and never calls Math.random', () => {
    const getUuid = vi.fn(() => randomUUID());
    g.Utilities = { getUuid };
    const random = vi.spyOn(Math, 'random');
    const a = secureCodeVerifier();
    const b = secureCodeVerifier();
    expect(a).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(a).not.toBe(b);
    expect(getUuid).toHaveBeenCalledTimes(6);
    expect(random).not.toHaveBeenCalled();
  });

  it('refuses to build a verifier from a source that does not give UUIDs', () => {
    g.Utilities = { getUuid: () => 'not-a-uuid' };
    expect(() => secureCodeVerifier()).toThrow('Could not create a secure PKCE verifier.');
  });
});

describe('client authentication: HTTP Basic only (spec 5.1, RFC 6749 2.3.1)', () => {
  it('form-encodes id and secret before joining them', () => {
    g.Utilities = { base64Encode: (s: string) => Buffer.from(s, 'utf8').toString('base64') };
    const header = basicAuthorization('client id', 'sec:ret/+');
    expect(header.startsWith('Basic ')).toBe(true);
    expect(Buffer.from(header.slice(6), 'base64').toString('utf8')).toBe('client+id:sec%3Aret%2F%2B');
  });

  it('removes client_secret from every token request body and keeps the rest', () => {
    const payload = {
      code: 'c',
      client_id: 'id',
      client_secret: 's',
      redirect_uri: 'r',
      grant_type: 'authorization_code',
      code_verifier: 'v',
    };
    const sent = withoutClientSecret(payload);
    expect(sent).toEqual({
      code: 'c',
      client_id: 'id',
      redirect_uri: 'r',
      grant_type: 'authorization_code',
      code_verifier: 'v',
    });
    expect(payload.client_secret).toBe('s');
  });
});

describe('authorization-server discovery (spec 5.2, RFC 8414)', () => {
  const base = 'https://api.merchant.example';

  it('takes both endpoints from a document on the API origin', () => {
    expect(
      endpointsFromMetadata({ authorization_endpoint: `${base}/oauth/a`, token_endpoint: `${base}/oauth/t` }, base),
    ).toEqual({ authorizationEndpoint: `${base}/oauth/a`, tokenEndpoint: `${base}/oauth/t` });
  });

  it('never sends the client secret to another host: a foreign token endpoint is refused', () => {
    expect(
      endpointsFromMetadata(
        { authorization_endpoint: `${base}/a`, token_endpoint: 'https://evil.example/token' },
        base,
      ),
    ).toBeNull();
    expect(endpointsFromMetadata({ authorization_endpoint: `${base}/a` }, base)).toBeNull();
    expect(endpointsFromMetadata('nonsense', base)).toBeNull();
  });

  it('falls back to the spec paths', () => {
    expect(defaultEndpoints(`${base}/`)).toEqual({
      authorizationEndpoint: `${base}/api/auth/oauth2/authorize`,
      tokenEndpoint: `${base}/api/auth/oauth2/token`,
    });
  });
});

describe("the library's token errors are read by code", () => {
  it('finds the OAuth error code, also on errors from another realm', () => {
    expect(oauthErrorCode(new Error('Error retrieving token: invalid_grant, the refresh token is not valid'))).toBe(
      'invalid_grant',
    );
    expect(oauthErrorCode({ message: 'Error retrieving token: invalid_client' })).toBe('invalid_client');
    expect(oauthErrorCode(new Error('Token response not valid JSON: SyntaxError'))).toBeNull();
    expect(oauthErrorCode(undefined)).toBeNull();
  });
});

describe('every connection state has a plain message and the action to take', () => {
  const store = { id: 'sto_1', name: 'Acme Shop' };
  const expected: Record<ConnectionStateName, string | null> = {
    not_configured: 'configure',
    not_connected: 'connect',
    connected: null,
    revoked: 'reconnect',
    store_changed: 'reconnect',
    invalid_claims: 'reconnect',
    missing_scope: 'reconnect',
    lapsed: 'reconnect',
    operator_problem: 'contact_operator',
  };
  for (const [state, action] of Object.entries(expected) as Array<[ConnectionStateName, string | null]>) {
    it(`${state} → ${action ?? 'no action'}`, () => {
      const m = messageFor(state, store, null);
      expect(m.action).toBe(action);
      expect(m.message.length).toBeGreaterThan(10);
      expect(m.message).not.toMatch(/token|oauth|401|403|invalid_/i);
    });
  }

  it('names the store and promises the sheets are kept when a reconnect is needed', () => {
    for (const state of ['revoked', 'store_changed', 'invalid_claims', 'lapsed'] as const) {
      const m = messageFor(state, store, null);
      if (state !== 'store_changed') expect(m.message).toContain('"Acme Shop"');
      expect(m.message).toContain('Your data in the sheets is kept');
    }
  });
});

describe('the account probe keeps the bearer token on the API host (no redirects followed)', () => {
  it('asks UrlFetchApp not to follow a redirect, and reads one as a failure', () => {
    const fetch = vi.fn((_url: string, _params: { followRedirects?: boolean; headers: Record<string, string> }) => ({
      getResponseCode: () => 302,
      getContentText: () => '',
    }));
    g.UrlFetchApp = { fetch };
    const probe = probeAccount('https://api.merchant.example', 'access-token');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][1].followRedirects).toBe(false);
    expect(probe.ok).toBe(false);
  });
});
