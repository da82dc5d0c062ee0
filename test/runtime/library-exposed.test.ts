/**
 * Bundled libraries: apps-script-oauth2's published build wraps its code in a function that puts
 * the API on the global object (`this.OAuth2 = {…}`) and declares nothing at top level. The loader
 * takes that object as the namespace, refuses shapes where it cannot tell which object is meant,
 * and loads the real release the manifest pins (../shared/vendor, v1.43.0) as Google runs it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';
import { OAUTH2_STANDIN, REAL_OAUTH2_LIBRARY } from '../../dev/harness/libraries.js';
import { LIBRARY_DIST } from './fixture-runtime.js';

const OAUTH2_DIST = path.join(path.dirname(LIBRARY_DIST), 'oauth2-library');
const fixture = (name: string): string => path.join(LIBRARY_DIST, name);

let runtime: GasRuntime | null = null;
afterEach(async () => {
  await runtime?.close();
  runtime = null;
});

describe('a library that declares nothing at top level exposes the object it put on its global object', () => {
  it('the wrapped Greeter works as the plain one does', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: fixture('Greeter.exposed.gs') } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      greeting: 'Hello, Ada (1970)',
      version: '3',
      count: 2,
      keys: ['Counter', 'PREFIX', 'VERSION', 'greet', 'storeGreeting'],
    });
    expect(runtime.properties.script.get('greeting')).toBe('Hello, Ada (1970)');
  });

  it('two objects on the global object: the execution fails naming both', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: fixture('Greeter.twoglobals.gs') } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(
      /Library Greeter .* must then put exactly one object on its global object; found First, Second/,
    );
  });

  it('nothing declared, nothing exposed: the execution fails saying so', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: fixture('Greeter.nothing.gs') } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/found none$/);
  });
});

describe('the real apps-script-oauth2 v1.43.0 (../shared/vendor) loads as Google runs it', () => {
  it('is present beside the repository', () => {
    expect(existsSync(REAL_OAUTH2_LIBRARY), `${REAL_OAUTH2_LIBRARY} is missing`).toBe(true);
  });

  it('OAuth2 is the object the release exposes: createService, getRedirectUri, getServiceNames, TOKEN_FORMAT', async () => {
    runtime = await createRuntime({ distDir: OAUTH2_DIST, libraries: { OAuth2: REAL_OAUTH2_LIBRARY } });
    const result = await runtime.run('oauth2Namespace');
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      keys: ['TOKEN_FORMAT', 'createService', 'getRedirectUri', 'getServiceNames'],
      json: 'application/json',
      redirect: 'https://script.google.com/macros/d/SCRIPT-1/usercallback',
    });
  });

  it('builds an authorization URL with a runtime state token and the S256 challenge of its verifier', async () => {
    runtime = await createRuntime({ distDir: OAUTH2_DIST, libraries: { OAuth2: REAL_OAUTH2_LIBRARY } });
    const result = await runtime.run('oauth2AuthorizationUrl');
    expect(result.error).toBeUndefined();
    const url = new URL(result.value as string);
    expect(url.origin + url.pathname).toBe('https://auth.example/authorize');
    expect(url.searchParams.get('client_id')).toBe('client-1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const expected = createHash('sha256').update('v'.repeat(43), 'ascii').digest('base64url');
    expect(url.searchParams.get('code_challenge')).toBe(expected);
    // The verifier travels sealed in the state token, never readable in the URL.
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(result.value as string).not.toContain('v'.repeat(43));
  });

  it.each([
    ['real', REAL_OAUTH2_LIBRARY],
    ['stand-in', OAUTH2_STANDIN],
  ])('%s: v1.43.0 refuses a callback without a client secret, before any request', async (_name, file) => {
    runtime = await createRuntime({ distDir: OAUTH2_DIST, libraries: { OAuth2: file } });
    const result = await runtime.run('oauth2CallbackWithoutSecret');
    expect(result.value).toBe('Client Secret is required.');
    expect(result.counts.urlFetches).toBe(0);
  });
});
