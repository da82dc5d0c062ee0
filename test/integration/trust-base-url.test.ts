/**
 * Configuration: the API's address works with or without /api/v1 and a trailing
 * slash everywhere (token exchange, account probe, discovery, every feed); an address that answers
 * with a redirect is a set-up problem naming the address to use, never "an incomplete answer",
 * and the redirect is never followed (the bearer token would go along).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, syncUntilCaughtUp } from './sync-support';

const EXACT = { mismatches: [], missing: [], unexpected: [], duplicates: [] };

let stack: Stack | undefined;
let redirector: http.Server | undefined;

afterEach(async () => {
  await stack?.close();
  stack = undefined;
  await new Promise<void>((resolve) => (redirector ? redirector.close(() => resolve()) : resolve()));
  redirector = undefined;
});

interface Stats {
  by_status: Record<string, number>;
}

describe('the API address as the operator typed it', () => {
  for (const suffix of ['/', '/api/v1', '/api/v1/']) {
    it(`"${suffix}" after the origin: connect, sync and truth all agree, and no request missed the API`, async () => {
      const s = (stack = await startStack({ orders: 120, seed: 10, plan: 'plus' }));
      s.runtime.properties.script.set('MA_API_BASE_URL', s.apiUrl + suffix);
      const connected = await s.connect();
      expect(connected.outcome).toBe('connected');
      await syncUntilCaughtUp(s);
      expect(await compareWithTruth(s)).toEqual(EXACT);
      const stats = (await s.control('stats')) as Stats;
      expect(stats.by_status['404'] ?? 0).toBe(0);
    }, 120_000);
  }
});

describe('an address that redirects', () => {
  it('the sync stops with a set-up message naming the address to use; the redirect is not followed', async () => {
    let target = '';
    const followed: string[] = [];
    redirector = http.createServer((req, res) => {
      if (req.headers.authorization) followed.push(String(req.url));
      res.writeHead(301, { Location: `${target}${req.url ?? '/'}` }).end();
    });
    await new Promise<void>((resolve) => redirector!.listen(0, '127.0.0.1', () => resolve()));
    const redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    const s = (stack = await startStack({ orders: 60, seed: 11, plan: 'plus', urlFetchAllow: [`${redirectorUrl}/`] }));
    target = s.apiUrl;
    await s.connect();
    s.runtime.properties.script.set('MA_API_BASE_URL', redirectorUrl);
    const apiRequests = async (): Promise<number> => {
      const stats = (await s.control('stats')) as { by_endpoint: Record<string, { total: number }> };
      return Object.entries(stats.by_endpoint)
        .filter(([name]) => name.includes('/api/v1/'))
        .reduce((n, [, e]) => n + e.total, 0);
    };
    const before = await apiRequests();

    const r = await s.runtime.run('onScheduledSync', []);
    expect(r.ok, r.error?.message).toBe(true);
    const value = r.value as { outcome: string; message: string };
    expect(value.outcome).toBe('error');
    expect(value.message).toContain(`redirects to ${s.apiUrl}`);
    expect(value.message).toContain('MA_API_BASE_URL');
    expect(value.message).not.toMatch(/incomplete answer/);
    // The redirect went nowhere: the emulator saw no API request carrying the token.
    expect(await apiRequests()).toBe(before);
    expect(followed.length).toBeGreaterThan(0);
  }, 120_000);
});
