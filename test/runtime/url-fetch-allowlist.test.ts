/**
 * urlFetchWhitelist as Google applies it (developers.google.com/apps-script/manifest/allowlist-url):
 * the entries' rules, the prefix matching with the page's own examples, and the runtime enforcing the
 * manifest's list with a local server standing in for the deployed base — nothing allowed on the side.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedBy, checkAllowlistEntries, substituteBase } from '../../dev/gas-runtime/allowlist.js';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

describe("Google's allowlist rules", () => {
  it('a prefix matches itself and its children only, path case-sensitive', () => {
    const prefix = 'https://example.com/foo';
    for (const url of [
      'https://example.com/foo',
      'https://example.com/foo/',
      'https://example.com/foo/bar',
      'https://example.com/foo?bar',
      'https://example.com/foo#bar',
    ])
      expect(allowedBy(prefix, url), url).toBe(true);
    for (const url of [
      'https://example.com/foobar',
      'https://example.com/Foo',
      'http://example.com/foo',
      'https://example.com:8443/foo',
      'https://other.example.com/foo',
      'https://example.com.evil.test/foo',
    ])
      expect(allowedBy(prefix, url), url).toBe(false);
    expect(allowedBy('https://api.example.com/api/v1/', 'https://api.example.com/api/auth/oauth2/token')).toBe(false);
    expect(allowedBy('https://api.example.com/', 'https://API.example.com/api/auth/oauth2/token')).toBe(true);
  });

  it('a leading wildcard matches subdomains (at least one, the stricter reading)', () => {
    expect(allowedBy('https://*.example.com/foo', 'https://sub.example.com/foo/x')).toBe(true);
    expect(allowedBy('https://*.example.com/foo', 'https://a.b.example.com/foo')).toBe(true);
    expect(allowedBy('https://*.example.com/foo', 'https://example.com/foo')).toBe(false);
    expect(allowedBy('https://*.example.com/foo', 'https://badexample.com/foo')).toBe(false);
  });

  it('refuses entries Google refuses: http, no path, no full domain, a wildcard elsewhere', () => {
    expect(() => checkAllowlistEntries(['https://www.google.com/', 'https://*.example.com/x'])).not.toThrow();
    expect(() => checkAllowlistEntries(['http://example.com/'])).toThrow('must use https://');
    expect(() => checkAllowlistEntries(['https://www.google.com'])).toThrow('must have a non-empty path');
    expect(() => checkAllowlistEntries(['https://localhost/'])).toThrow('must have a full domain');
    expect(() => checkAllowlistEntries(['https://api.*.example.com/'])).toThrow('single wildcard');
  });

  it('puts the local base in place of the deployed one, entry by entry', () => {
    expect(
      substituteBase(['https://api.example.com/', 'https://api.example.com/api/v1/', 'https://cdn.example.com/'], {
        from: 'https://api.example.com',
        to: 'http://127.0.0.1:8787/',
      }),
    ).toEqual(['http://127.0.0.1:8787/', 'http://127.0.0.1:8787/api/v1/', 'https://cdn.example.com/']);
  });
});

describe("the runtime enforces the manifest's own list", () => {
  let runtime: GasRuntime;
  let server: http.Server;
  let origin: string;
  let reached: string[];

  beforeAll(async () => {
    reached = [];
    server = http.createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end('fine');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The fixture's manifest lists https://api.example.com/ only; nothing else is allowed.
    runtime = await basicRuntime({
      costModel: false,
      urlFetchWhitelistBase: { from: 'https://api.example.com', to: origin },
    });
  });

  afterAll(async () => {
    await runtime.close();
    await new Promise((r) => server.close(r));
  });

  it('reaches the stand-in for the listed base; refuses, sending nothing, what the list leaves out', async () => {
    expect((await runtime.run('fetchUrl', [`${origin}/api/v1/orders?x=1`])).value).toMatchObject({ code: 200 });
    const outsider = `http://localhost:${new URL(origin).port}/api/v1/orders`;
    const refused = await runtime.run('fetchUrl', [outsider]);
    expect(refused.error?.message).toBe(
      `UrlFetch calls to ${outsider} are not permitted by the script's urlFetchWhitelist.`,
    );
    expect(reached).toEqual(['/api/v1/orders?x=1']);
  });
});
