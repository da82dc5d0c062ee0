import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentText, OPENAPI_JSON_PATH } from '../../openapi/build.js';
import { startHarness, type Harness, type Order, type Product, type Schemas, type Store } from './harness.js';

// CommonJS modules seen through ESM: the class/plugin may sit on `.default`.
const Ajv = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020;
const withFormats = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;

let h: Harness;
let orderId: string;
let productId: string;

beforeAll(async () => {
  h = await startHarness({ orders: 600, seed: 5 });
  orderId = (await h.truthOrders())[3]!.id;
  productId = (await h.control<{ data: Product[] }>('/_emulator/truth/products')).body.data[3]!.id;
});
afterAll(() => h.close());

const ENDPOINTS = (): Array<[string, string]> => [
  ['/api/v1/account', 'AccountResponse'],
  ['/api/v1/stores', 'StoreList'],
  ['/api/v1/orders?limit=50&status=all', 'OrderList'],
  [`/api/v1/orders/${orderId}`, 'OrderResponse'],
  ['/api/v1/products?limit=50', 'ProductList'],
  [`/api/v1/products/${productId}`, 'ProductResponse'],
  ['/api/v1/profitability/summary', 'SummaryResponse'],
  ['/api/v1/profitability/daily?limit=400&start_date=2020-01-01', 'DailyList'],
];

describe('4.10 / 9 the OpenAPI 3.1 document', () => {
  it('is served without authentication and is a valid OpenAPI 3.1 document', async () => {
    const res = await fetch(`${h.emu.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is the current output of openapi/build.ts', () => {
    expect(readFileSync(OPENAPI_JSON_PATH, 'utf8')).toBe(documentText());
  });

  it('matches the generated client types (npm run gen:api-types)', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const generated = astToString(await openapiTS(pathToFileURL(OPENAPI_JSON_PATH)));
    const committed = readFileSync(
      fileURLToPath(new URL('../../src/server/api/generated/schema.d.ts', import.meta.url)),
      'utf8',
    );
    expect(committed.endsWith(generated)).toBe(true);
  });

  it('describes every real response: each endpoint validates against its schema', async () => {
    const doc = JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    withFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'https://emulator.test/openapi.json' });
    for (const [path, schema] of ENDPOINTS()) {
      const validate = ajv.getSchema(`https://emulator.test/openapi.json#/components/schemas/${schema}`)!;
      const res = await h.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      const ok = validate(res.body);
      expect([path, ok ? [] : validate.errors?.slice(0, 3)]).toEqual([path, []]);
    }
    const validateOrder = ajv.getSchema('https://emulator.test/openapi.json#/components/schemas/OrderResponse')!;
    expect(validateOrder({ success: true, data: {} })).toBe(false);
    const validateError = ajv.getSchema('https://emulator.test/openapi.json#/components/schemas/Error')!;
    expect(validateError((await h.get('/api/v1/orders?limit=0')).body)).toBe(true);
  });
});

describe('2.1 the response envelope', () => {
  it('lists carry data array + page; history-bounded reads carry meta; single records an object', async () => {
    const list = (await h.get<Order[]>('/api/v1/orders?limit=2')).body;
    expect(Object.keys(list).sort()).toEqual(['data', 'meta', 'page', 'success']);
    expect(list.success).toBe(true);
    expect(Array.isArray(list.data)).toBe(true);
    expect(Object.keys(list.page).sort()).toEqual(['has_more', 'limit', 'next_cursor']);
    const one = (await h.get(`/api/v1/orders/${orderId}`)).body;
    expect(Object.keys(one).sort()).toEqual(['data', 'success']);
    expect(Array.isArray(one.data)).toBe(false);
    const stores = (await h.get<Store[]>('/api/v1/stores')).body;
    expect(stores.data).toHaveLength(1);
  });
});

describe('4.1 / 7 methods, scopes and error bodies', () => {
  it('answers 405 method_not_allowed for every method but GET', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      const res = await fetch(`${h.emu.url}/api/v1/orders`, {
        method,
        headers: { Authorization: `Bearer ${h.token}` },
      });
      expect([method, res.status]).toEqual([method, 405]);
      if (method !== 'HEAD') expect((await res.json()).error.code).toBe('method_not_allowed');
    }
  });

  it('answers 401 missing_token with WWW-Authenticate, and refuses a token in the query string', async () => {
    for (const path of ['/api/v1/orders', `/api/v1/orders?access_token=${h.token}`]) {
      const res = await fetch(h.emu.url + path);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource/api/v1');
      expect((await res.json()).error.code).toBe('missing_token');
    }
  });

  it('answers 403 insufficient_scope when the token lacks the endpoint scope', async () => {
    const narrow = await h.mint({ scope: 'orders:read', user: 'scope-test@example.test' });
    const res = await h.get('/api/v1/products', narrow);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect((await h.get('/api/v1/orders?limit=1', narrow)).status).toBe(200);
  });

  it('names the parameter in invalid_parameter, including unknown and repeated parameters', async () => {
    const cases: Array<[string, string]> = [
      ['/api/v1/orders?updated_after=yesterday', 'updated_after'],
      ['/api/v1/orders?created_after=2024-02-30', 'created_after'],
      ['/api/v1/orders?status=cancelled', 'status'],
      ['/api/v1/orders?sales_channel=pos', 'sales_channel'],
      ['/api/v1/orders?colour=red', 'colour'],
      ['/api/v1/orders?limit=5&limit=6', 'limit'],
      ['/api/v1/profitability/summary?start_date=2024-05-02&end_date=2024-05-01', 'end_date'],
      ['/api/v1/orders?created_after=2024-05-02&created_before=2024-05-01', 'created_before'],
      ['/api/v1/orders?updated_after=2024-05-01', 'updated_after'],
      ['/api/v1/products?status=deleted', 'status'],
      ['/api/v1/profitability/daily?start_date=20240501', 'start_date'],
      [`/api/v1/orders/${orderId}?expand=line_items`, 'expand'],
      ['/api/v1/account?x=1', 'x'],
    ];
    for (const [path, name] of cases) {
      const res = await h.get(path);
      expect([path, res.status, res.body.error.code]).toEqual([path, 400, 'invalid_parameter']);
      expect(res.body.error.message).toContain(name);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'success']);
    }
  });

  it('answers 404 for an unknown API path', async () => {
    const res = await h.get('/api/v1/customers');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('8.5 caching: account, stores and summary carry Cache-Control', () => {
  it.each(['/api/v1/account', '/api/v1/stores', '/api/v1/profitability/summary'])('%s', async (path) => {
    const res = await h.get(path);
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
  });
});

describe('8.1 rate-limit headers on success', () => {
  it('carries RateLimit-Limit/Remaining/Policy on 2xx', async () => {
    const res = await h.get('/api/v1/stores');
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(res.headers.get('ratelimit-policy')).not.toBeNull();
  });
});

describe('3.2 the token decides the store', () => {
  it('reads the second store with a token bound to it', async () => {
    const outlet = (await h.control<{ data: Store[] }>('/_emulator/truth/stores')).body.data[1]!;
    const token = await h.mint({ store: outlet.id, user: 'outlet@example.test' });
    const account = await h.get<Schemas['Account']>('/api/v1/account', token);
    expect(account.body.data.store.id).toBe(outlet.id);
    const orders = (await h.get<Order[]>('/api/v1/orders?limit=250&status=all', token)).body.data;
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.store_id === outlet.id)).toBe(true);
  });
});
