/**
 * Spec 4.10 / 9: the served OpenAPI document describes what the emulator really answers — every
 * record (not a sample page), every nullable field the spec names and no other, every error status
 * an operation can answer, and the headers the document marks required.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAll, startHarness, type Harness, type Order, type Product } from './harness.js';

const Ajv = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020;
const withFormats = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;

type Json = Record<string, unknown>;
interface HeaderSpec {
  required?: boolean;
  schema: { type: string };
}
interface ResponseSpec {
  $ref?: string;
  headers?: Record<string, HeaderSpec>;
  content?: { 'application/json': { schema: { $ref?: string } } };
}
interface Doc {
  paths: Record<string, { get: { responses: Record<string, ResponseSpec> } }>;
  components: { schemas: Record<string, Json>; responses: Record<string, ResponseSpec> };
}

let h: Harness;
let doc: Doc;
let ajv: InstanceType<typeof Ajv>;
let orderId: string;
let productId: string;

beforeAll(async () => {
  h = await startHarness({ orders: 400, products: 40, days: 120, seed: 17 });
  doc = (await (await fetch(`${h.emu.url}/api/v1/openapi.json`)).json()) as Doc;
  ajv = new Ajv({ strict: false, allErrors: true });
  withFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'https://emulator.test/openapi.json' });
  const truth = await h.truthOrders();
  orderId = truth[1]!.id;
  productId = (await h.control<{ data: Product[] }>('/_emulator/truth/products')).body.data[1]!.id;
  // Make sure both sides of every nullable order field occur: a cancellation and a refund.
  await h.control(`/_emulator/orders/${truth[10]!.id}/change`, { kind: 'cancel' });
  await h.control(`/_emulator/orders/${truth[11]!.id}/change`, { kind: 'refund' });
});
afterAll(() => h.close());

function validate(schema: string, value: unknown): unknown[] {
  const check = ajv.getSchema(`https://emulator.test/openapi.json#/components/schemas/${schema}`)!;
  return check(value) ? [] : (check.errors ?? []).slice(0, 3);
}

function resolve(response: ResponseSpec): ResponseSpec {
  return response.$ref ? doc.components.responses[response.$ref.split('/').pop()!]! : response;
}

const concrete = (path: string): string =>
  path.replace('/orders/{id}', `/orders/${orderId}`).replace('/products/{id}', `/products/${productId}`);

function expectHeaders(label: string, declared: Record<string, HeaderSpec> | undefined, headers: Headers): void {
  for (const [name, spec] of Object.entries(declared ?? {})) {
    const value = headers.get(name);
    if (!spec.required && value === null) continue;
    expect([label, name, value === null ? 'absent' : 'present']).toEqual([label, name, 'present']);
    if (spec.schema.type === 'integer')
      expect([label, name, value]).toEqual([label, name, expect.stringMatching(/^\d+$/)]);
  }
}

describe('every record validates, with both sides of every nullable field present', () => {
  it('all orders (status=all), all products and all their variants', async () => {
    const orders = await pageAll<Order>(h, '/api/v1/orders?status=all&limit=250');
    const products = await pageAll<Product>(h, '/api/v1/products?limit=250');
    for (const o of orders) expect([o.id, validate('Order', o)]).toEqual([o.id, []]);
    for (const p of products) expect([p.id, validate('Product', p)]).toEqual([p.id, []]);
    const both = <T>(rows: T[], pick: (row: T) => unknown): [boolean, boolean] => [
      rows.some((r) => pick(r) === null),
      rows.some((r) => pick(r) !== null),
    ];
    expect(both(orders, (o) => o.canceled_at)).toEqual([true, true]);
    expect(both(orders, (o) => o.refunded_at)).toEqual([true, true]);
    expect(both(orders, (o) => o.attribution.utm_source)).toEqual([true, true]);
    expect(both(products, (p) => p.cogs)).toEqual([true, true]);
    expect(
      both(
        products.flatMap((p) => p.variants),
        (v) => v.cogs,
      ),
    ).toEqual([true, true]);
  });

  it('the document makes nullable exactly the fields the spec allows to be null', () => {
    const nullable: string[] = [];
    const walk = (schema: Json, at: string): void => {
      const type = schema.type;
      const oneOf = schema.oneOf as Json[] | undefined;
      if ((Array.isArray(type) && type.includes('null')) || oneOf?.some((s) => s.type === 'null')) nullable.push(at);
      for (const [name, child] of Object.entries((schema.properties as Record<string, Json>) ?? {}))
        walk(child, `${at}.${name}`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    expect(nullable.sort()).toEqual(
      [
        // Spec 2.2, 2.4, 2.7, 2.1 (next_cursor is null on the last page), 8.3.
        'Order.canceled_at',
        'Order.refunded_at',
        'Attribution.utm_source',
        'Attribution.utm_medium',
        'Attribution.utm_campaign',
        'Attribution.utm_term',
        'Attribution.utm_content',
        'Product.cogs',
        'Variant.cogs',
        'Page.next_cursor',
        'HistoryMeta.history_available_from',
        // Account fields whose types the spec leaves open: unlimited history on Plus.
        'Account.data_availability.history_days',
        'Account.data_availability.available_from',
      ].sort(),
    );
  });
});

describe('every operation answers as declared: 200 body and required headers', () => {
  it('each path of the document', async () => {
    const paths = Object.keys(doc.paths).filter((p) => p !== '/api/v1/openapi.json');
    expect(paths).toHaveLength(8);
    for (const path of paths) {
      const ok = resolve(doc.paths[path]!.get.responses['200']!);
      const res = await h.get(concrete(path));
      expect([path, res.status]).toEqual([path, 200]);
      const schema = ok.content!['application/json'].schema.$ref!.split('/').pop()!;
      expect([path, validate(schema, res.body)]).toEqual([path, []]);
      expectHeaders(path, ok.headers, res.headers);
    }
  });
});

describe('every error status an operation answers is declared for it, with an Error body and its headers', () => {
  it('400, 401, 403, 404, 405, 429 and 500', async () => {
    const narrow = await h.mint({ scope: 'offline_access', user: 'nothing@example.test' });
    for (const path of Object.keys(doc.paths).filter((p) => p !== '/api/v1/openapi.json')) {
      const url = concrete(path);
      const single = path.endsWith('{id}');
      const cases: Array<[string, () => Promise<{ status: number; headers: Headers; body: unknown }>]> = [
        ['400', () => h.get(`${url}?unknown_filter=1`)],
        [
          '401',
          () =>
            fetch(h.emu.url + url).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() })),
        ],
        ['403', () => h.get(url, narrow)],
        [
          '405',
          () =>
            fetch(h.emu.url + url, { method: 'DELETE' }).then(async (r) => ({
              status: r.status,
              headers: r.headers,
              body: await r.json(),
            })),
        ],
        [
          '429',
          async () => {
            await h.control('/_emulator/faults', {
              status: 429,
              count: 1,
              path_prefix: url,
              reason: 'hour',
              retry_after: 120,
            });
            return h.get(url);
          },
        ],
        [
          '500',
          async () => {
            await h.control('/_emulator/faults', { status: 500, count: 1, path_prefix: url });
            return h.get(url);
          },
        ],
      ];
      if (single) cases.push(['404', () => h.get(url.replace(/\/[^/]+$/, '/external:0'))]);
      for (const [status, call] of cases) {
        const declared = doc.paths[path]!.get.responses[status];
        expect([path, status, declared === undefined ? 'undeclared' : 'declared']).toEqual([path, status, 'declared']);
        const res = await call();
        expect([path, res.status]).toEqual([path, Number(status)]);
        expect([path, status, validate('Error', res.body)]).toEqual([path, status, []]);
        expectHeaders(`${status} ${path}`, resolve(declared!).headers, res.headers);
      }
    }
  });
});
