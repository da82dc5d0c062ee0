/**
 * Functions that find a record the way finance staff name it: PROFIT_ORDER by the order number
 * the store shows (#1001) through the synced Orders sheet, and PRODUCT_COST by SKU through the
 * Products and Variants sheets — unknown cost never 0, a tiered or per-market cost partial.
 * Compared with the emulator's truth; run as custom-function executions of the built bundle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
let stack: Stack;
let orders: Json[];
let products: Json[];

const run = (name: string, args: unknown[]): Promise<ExecutionResult> =>
  stack.runtime.run(name, args, { authMode: 'CUSTOM_FUNCTION' });
const fields = (r: ExecutionResult): Map<string, unknown> => {
  expect(r.error, JSON.stringify(r.error)).toBeUndefined();
  return new Map((r.value as unknown[][]).slice(1).map(([k, v]) => [String(k), v]));
};

beforeAll(async () => {
  stack = await startStack({ orders: 150, seed: 22, plan: 'plus' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  products = ((await stack.truth('products')) as { data: Json[] }).data;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('PROFIT_ORDER by the number the store shows', () => {
  it('"#1005", 1005 and "1005" find the order numbered #1005; its economics are the truth\'s', async () => {
    const order = orders.find((o) => o.order_number === '#1005')!;
    expect(order).toBeDefined();
    for (const ref of ['#1005', 1005, '1005']) {
      const got = fields(await run('PROFIT_ORDER', [ref]));
      expect(got.get('id'), String(ref)).toBe(order.id);
      expect(got.get('net_profit')).toBe((order.economics as Json).net_profit);
    }
  });

  it("the platform's own id still works, as external:<id> or digits no order shows as its number", async () => {
    const order = orders[3];
    expect(fields(await run('PROFIT_ORDER', [`external:${String(order.external_order_id)}`])).get('id')).toBe(order.id);
    expect(fields(await run('PROFIT_ORDER', [Number(order.external_order_id)])).get('id')).toBe(order.id);
  });

  it('a number no synced order has says how to fix it, and sends no request', async () => {
    const r = await run('PROFIT_ORDER', ['#999999']);
    expect(r.error?.message).toMatch(/^PROFIT_ORDER: no order numbered #999999 in the Orders sheet: run Sync now/);
    expect(r.counts.urlFetches).toBe(0);
  });
});

describe('PRODUCT_COST by SKU', () => {
  const variants = (): Array<{ product: Json; variant: Json }> =>
    products.flatMap((p) => ((p.variants as Json[]) ?? []).map((v) => ({ product: p, variant: v })));

  it('a variant with a plain cost: its unit cost, currency and "known", as the API has them', async () => {
    const { product, variant } = variants().find(
      ({ variant: v }) =>
        v.cogs &&
        !(v.cogs as Json).cost_is_tiered &&
        !(v.cogs as Json).cost_is_market_specific &&
        (v.cogs as Json).unit_cost !== 0,
    )!;
    const got = fields(await run('PRODUCT_COST', [variant.sku]));
    expect(got.get('product_id')).toBe(product.id);
    expect(got.get('variant_id')).toBe(variant.id);
    expect(got.get('unit_cost')).toBe((variant.cogs as Json).unit_cost);
    expect(got.get('currency')).toBe((variant.cogs as Json).currency);
    expect(got.get('cost_status')).toBe('known');
    expect((await run('PRODUCT_COST', [variant.sku, 'unit_cost'])).value).toEqual([[(variant.cogs as Json).unit_cost]]);
  });

  it('an unknown cost is never 0: an empty cost with status unknown, and "unknown" as one value', async () => {
    const { variant } = variants().find(({ variant: v }) => v.cogs === null)!;
    const got = fields(await run('PRODUCT_COST', [variant.sku]));
    expect(got.get('unit_cost')).toBe('');
    expect(String(got.get('cost_status'))).toMatch(/^unknown: .*profit is overstated/);
    expect((await run('PRODUCT_COST', [variant.sku, 'unit_cost'])).value).toEqual([['unknown']]);
  });

  it('a genuinely free cost stays 0, known', async () => {
    const free = variants().find(
      ({ variant: v }) => v.cogs && (v.cogs as Json).unit_cost === 0 && (v.cogs as Json).handling_cost === 0,
    );
    expect(free, 'seed 22 has a product whose cost is genuinely 0').toBeDefined();
    const got = fields(await run('PRODUCT_COST', [free!.variant.sku]));
    expect(got.get('unit_cost')).toBe(0);
    expect(got.get('cost_status')).toBe('known');
  });

  it('a tiered or per-market cost says it is partial', async () => {
    for (const flag of ['cost_is_tiered', 'cost_is_market_specific']) {
      const { variant } = variants().find(({ variant: v }) => v.cogs && (v.cogs as Json)[flag] === true)!;
      const got = fields(await run('PRODUCT_COST', [variant.sku]));
      expect(got.get(flag)).toBe(true);
      expect(String(got.get('cost_status')), flag).toMatch(/^partial: /);
    }
  });

  it("a product id gives the product's own cost; an unknown SKU names the fix", async () => {
    const product = products[0];
    expect(fields(await run('PRODUCT_COST', [product.id])).get('product_id')).toBe(product.id);
    const r = await run('PRODUCT_COST', ['NO-SUCH-SKU']);
    expect(r.error?.message).toMatch(/^PRODUCT_COST: no product or variant with SKU "NO-SUCH-SKU"/);
  });
});
