/**
 * Spec 4.1, 5.6, 5.8, 7, 8.1 over HTTP, endpoint by endpoint: the method rule, the 401s and their
 * WWW-Authenticate header, the scope each endpoint needs, the RateLimit headers of every success,
 * and 404 for another store's records. Spec rate limits (no harness override) so the headers carry
 * the spec's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Order, type Product, type Store } from './harness.js';

let h: Harness;
let own: { order: Order; product: Product };
let other: { store: Store; order: Order; product: Product };

/** Spec 4.1: every endpoint with the scope it needs (openapi.json needs none). */
const ENDPOINTS = (): Array<{ path: string; scope: string }> => [
  { path: '/api/v1/account', scope: 'store:read' },
  { path: '/api/v1/stores', scope: 'store:read' },
  { path: '/api/v1/orders', scope: 'orders:read' },
  { path: `/api/v1/orders/${own.order.id}`, scope: 'orders:read' },
  { path: '/api/v1/products', scope: 'products:read' },
  { path: `/api/v1/products/${own.product.id}`, scope: 'products:read' },
  { path: '/api/v1/profitability/summary', scope: 'profitability:read' },
  { path: '/api/v1/profitability/daily', scope: 'profitability:read' },
];
const SCOPES = ['store:read', 'orders:read', 'products:read', 'profitability:read'];
const METADATA = '/.well-known/oauth-protected-resource/api/v1';

beforeAll(async () => {
  h = await startHarness({ orders: 120, products: 12, days: 60, seed: 4, rateLimits: {} });
  const stores = (await h.control<{ data: Store[] }>('/_emulator/truth/stores')).body.data;
  const products = async (store?: string): Promise<Product[]> =>
    (await h.control<{ data: Product[] }>(`/_emulator/truth/products${store ? `?store=${store}` : ''}`)).body.data;
  own = { order: (await h.truthOrders())[5]!, product: (await products())[2]! };
  other = {
    store: stores[1]!,
    order: (await h.truthOrders(stores[1]!.id))[3]!,
    product: (await products(stores[1]!.id))[1]!,
  };
});
afterAll(() => h.close());

async function raw(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(h.emu.url + path, init);
}

describe('spec 1 / 4.1: every method but GET is 405 method_not_allowed, on every endpoint', () => {
  it('POST, PUT, PATCH, DELETE, HEAD and OPTIONS, with and without a token, carry Allow: GET', async () => {
    const paths = [...ENDPOINTS().map((e) => e.path), '/api/v1/openapi.json'];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
        for (const headers of [{ Authorization: `Bearer ${h.token}` }, {}] as Array<Record<string, string>>) {
          const res = await raw(path, { method, headers });
          const label = `${method} ${path} ${Object.keys(headers).length ? 'with' : 'without'} token`;
          expect([label, res.status, res.headers.get('allow')]).toEqual([label, 405, 'GET']);
          if (method !== 'HEAD') expect([label, (await res.json()).error.code]).toEqual([label, 'method_not_allowed']);
        }
      }
    }
  });
});

describe('spec 5.8: every 401 carries WWW-Authenticate pointing at the protected-resource metadata', () => {
  it('on every endpoint: no header, a query-string token alone, a query-string token beside a header, an expired token', async () => {
    const expired = await h.mint({ expired: true, user: 'expired@example.test' });
    for (const { path } of ENDPOINTS()) {
      const sep = path.includes('?') ? '&' : '?';
      const cases: Array<[string, string, Record<string, string>, string]> = [
        ['no header', path, {}, 'missing_token'],
        ['query token', `${path}${sep}access_token=${h.token}`, {}, 'missing_token'],
        [
          'query token + header',
          `${path}${sep}access_token=${h.token}`,
          { Authorization: `Bearer ${h.token}` },
          'invalid_token',
        ],
        ['expired', path, { Authorization: `Bearer ${expired}` }, 'invalid_token'],
      ];
      for (const [name, url, headers, code] of cases) {
        const res = await raw(url, { headers });
        const label = `${name} ${path}`;
        const challenge = res.headers.get('www-authenticate') ?? '';
        expect([label, res.status, (await res.json()).error.code]).toEqual([label, 401, code]);
        expect([label, challenge]).toEqual([
          label,
          `Bearer resource_metadata="${h.emu.url}${METADATA}"${code === 'missing_token' ? '' : ', error="invalid_token"'}`,
        ]);
      }
    }
  });

  it('the metadata document it points at names this API and its authorization server', async () => {
    const doc = (await (await raw(METADATA)).json()) as { resource: string; authorization_servers: string[] };
    expect(doc.resource).toBe(`${h.emu.url}/api/v1`);
    expect(doc.authorization_servers).toEqual([h.emu.url]);
  });

  it('403s carry no Bearer challenge for a missing token', async () => {
    const narrow = await h.mint({ scope: 'store:read', user: 'narrow@example.test' });
    const res = await h.get('/api/v1/orders', narrow);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate') ?? '').not.toMatch(/error="invalid_token"/);
  });
});

describe('spec 4.1 / 5.8: each endpoint needs exactly its scope (403 insufficient_scope naming it)', () => {
  it.each(SCOPES)('a token with only %s', async (scope) => {
    const token = await h.mint({ scope, user: `only-${scope.replace(':', '-')}@example.test` });
    for (const endpoint of ENDPOINTS()) {
      const res = await h.get(endpoint.path, token);
      if (endpoint.scope === scope) {
        expect([endpoint.path, res.status]).toEqual([endpoint.path, 200]);
      } else {
        expect([endpoint.path, res.status, res.body.error.code]).toEqual([endpoint.path, 403, 'insufficient_scope']);
        expect(res.body.error.message).toContain(endpoint.scope);
      }
    }
  });

  it('offline_access alone reads nothing; openapi.json needs no token at all', async () => {
    const token = await h.mint({ scope: 'offline_access', user: 'offline-only@example.test' });
    for (const { path } of ENDPOINTS()) expect([path, (await h.get(path, token)).status]).toEqual([path, 403]);
    expect((await raw('/api/v1/openapi.json')).status).toBe(200);
  });
});

describe('spec 8.1: every successful response carries the hourly RateLimit headers', () => {
  it('RateLimit-Limit 1000, RateLimit-Remaining counting down by one per request, RateLimit-Policy 1000;w=3600', async () => {
    // A fresh hour (the requests above are forgotten); the harness token expired with it.
    await h.control('/_emulator/clock', { advance_seconds: 3601 });
    h.token = await h.mint();
    const remaining: number[] = [];
    for (const { path } of ENDPOINTS()) {
      const res = await h.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect([path, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-policy')]).toEqual([
        path,
        '1000',
        '1000;w=3600',
      ]);
      expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual(remaining.map((_, i) => 999 - i));
  });
});

describe("spec 4.5 / 4.7 / 7: another store's records are 404 not_found", () => {
  it('orders and products of the second store, by service id and by external id', async () => {
    const paths = [
      `/api/v1/orders/${other.order.id}`,
      `/api/v1/orders/external:${other.order.external_order_id}`,
      `/api/v1/products/${other.product.id}`,
      `/api/v1/products/external:${other.product.external_product_id}`,
    ];
    for (const path of paths) {
      const res = await h.get(path);
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'not_found']);
    }
    // The same references resolve for a token of that store: the 404 was the store boundary.
    const token = await h.mint({ store: other.store.id, user: 'other-store@example.test' });
    for (const path of paths) expect([path, (await h.get(path, token)).status]).toEqual([path, 200]);
  });
});
