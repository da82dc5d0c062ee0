import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;
let server: http.Server;
let origin: string;
let outsider: http.Server;
let outsiderOrigin: string;
const received: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }> = [];

function listen(s: http.Server): Promise<string> {
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/ok') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1', 'Set-Cookie': ['a=1', 'b=2'] });
        res.end('{"fine":true}');
      } else if (req.url === '/missing') {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"NOT_FOUND"}}');
      } else if (req.url === '/redirect') {
        res.writeHead(302, { Location: '/ok' });
        res.end();
      } else {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(`${req.method} ${req.headers['content-type'] ?? '-'} ${body}`);
      }
    });
  });
  origin = await listen(server);
  outsider = http.createServer((_req, res) => res.end('should not be reached'));
  outsiderOrigin = await listen(outsider);
  runtime = await basicRuntime({ urlFetchAllow: [`${origin}/`], costModel: false });
});

afterAll(async () => {
  await runtime.close();
  await new Promise((r) => server.close(r));
  await new Promise((r) => outsider.close(r));
});

describe('UrlFetchApp makes real HTTP requests', () => {
  it("returns code, text, bytes and headers with the server's casing", async () => {
    const result = await runtime.run('fetchUrl', [`${origin}/ok`]);
    expect(result.value).toEqual({
      code: 200,
      text: '{"fine":true}',
      bytes: 13,
      blob: '{"fine":true}',
      headers: expect.objectContaining({
        'Content-Type': 'application/json',
        'X-Request-Id': 'r-1',
        'Set-Cookie': ['a=1', 'b=2'],
      }),
    });
  });

  it("throws Google's message on status >= 400 unless muteHttpExceptions", async () => {
    const thrown = await runtime.run('fetchUrl', [`${origin}/missing`]);
    expect(thrown.ok).toBe(false);
    expect(thrown.error?.message).toBe(
      `Request failed for ${origin} returned code 404. Truncated server response: {"error":{"code":"NOT_FOUND"}} (use muteHttpExceptions option to examine full response)`,
    );
    const muted = await runtime.run('fetchUrl', [`${origin}/missing`, { muteHttpExceptions: true }]);
    expect((muted.value as { code: number; text: string }).code).toBe(404);
    expect((muted.value as { text: string }).text).toBe('{"error":{"code":"NOT_FOUND"}}');
  });

  it('sends method, headers and payloads (object payloads form-encoded)', async () => {
    const form = await runtime.run('fetchUrl', [
      `${origin}/echo`,
      { method: 'post', payload: { grant_type: 'authorization_code', code: 'a b&c' } },
    ]);
    expect((form.value as { text: string }).text).toBe(
      'POST application/x-www-form-urlencoded grant_type=authorization_code&code=a%20b%26c',
    );
    const json = await runtime.run('fetchUrl', [
      `${origin}/echo`,
      {
        method: 'put',
        contentType: 'application/json',
        payload: '{"x":1}',
        headers: { Authorization: 'Bearer secret-token' },
      },
    ]);
    expect((json.value as { text: string }).text).toBe('PUT application/json {"x":1}');
    expect(received[received.length - 1].headers.authorization).toBe('Bearer secret-token');
  });

  it('follows redirects unless told not to', async () => {
    expect((await runtime.run('fetchUrl', [`${origin}/redirect`])).value).toMatchObject({
      code: 200,
      text: '{"fine":true}',
    });
    expect((await runtime.run('fetchUrl', [`${origin}/redirect`, { followRedirects: false }])).value).toMatchObject({
      code: 302,
    });
  });

  it('fetchAll runs every request and returns responses in order', async () => {
    const result = await runtime.run('fetchBoth', [[`${origin}/ok`, `${origin}/missing`, `${origin}/echo`]]);
    expect(result.value).toEqual([200, 404, 200]);
    expect(result.counts.urlFetches).toBe(3);
  });

  it('records method, URL, status and size per request, never headers or payloads', async () => {
    const result = await runtime.run('fetchUrl', [
      `${origin}/echo?page=2`,
      { method: 'post', payload: 'client_secret=s3cr3t', headers: { Authorization: 'Basic abc' } },
    ]);
    expect(result.counts.requests).toEqual([
      {
        method: 'POST',
        url: `${origin}/echo?page=2`,
        status: 200,
        bytes: Buffer.byteLength('POST application/x-www-form-urlencoded client_secret=s3cr3t'),
      },
    ]);
    expect(JSON.stringify(result.counts)).not.toMatch(/s3cr3t|Basic abc/);
    expect(result.counts.byMethod['UrlFetchApp.fetch']).toBe(1);
  });
});

describe('UrlFetchApp enforces the manifest whitelist and the URL length', () => {
  it('refuses a URL outside urlFetchWhitelist and urlFetchAllow, sending nothing', async () => {
    const before = received.length;
    const result = await runtime.run('fetchUrl', [`${outsiderOrigin}/anything?token=abc`]);
    expect(result.ok).toBe(false);
    expect(result.error?.message).toBe(
      `UrlFetch calls to ${outsiderOrigin}/anything are not permitted by the script's urlFetchWhitelist.`,
    );
    expect(result.counts.requests).toEqual([]);
    expect(received.length).toBe(before);
  });

  it('refuses a URL longer than 2 KB', async () => {
    const result = await runtime.run('fetchUrl', [`${origin}/echo?q=${'x'.repeat(2100)}`]);
    expect(result.error?.message).toBe('Limit Exceeded: URLFetch URL Length.');
  });
});
