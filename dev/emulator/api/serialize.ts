import type { components } from '../../../src/server/api/generated/schema.js';
import { computeEconomics } from '../data/economics.js';
import type { CostRecord, OrderRecord, ProductRecord, StoreRecord } from '../data/model.js';
import { toAmount } from '../money.js';
import { withRawFields } from '../data/raw-fields.js';

export type Order = components['schemas']['Order'];
export type Product = components['schemas']['Product'];
export type Cost = components['schemas']['Cost'];
export type Store = components['schemas']['Store'];

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function storeJson(store: StoreRecord): Store {
  return {
    id: store.id,
    name: store.name,
    platform: store.platform,
    shop_domain: store.domain,
    currency: store.currency,
    timezone: store.timezone,
  };
}

export function orderJson(order: OrderRecord, taxTreatedAsCost: boolean): Order {
  return withRawFields(plainOrderJson(order, taxTreatedAsCost), order.rawFields);
}

function plainOrderJson(order: OrderRecord, taxTreatedAsCost: boolean): Order {
  const e = computeEconomics(order, taxTreatedAsCost);
  const gid = `gid://shopify/Order/${order.externalId}`;
  return {
    id: order.id,
    external_order_id: order.externalId,
    external_order_gid: gid,
    order_number: order.orderNumber,
    platform: order.platform,
    store_id: order.storeId,
    created_at: iso(order.createdMs),
    updated_at: iso(order.updatedMs),
    canceled_at: order.canceledMs === null ? null : iso(order.canceledMs),
    refunded_at: order.refundedMs === null ? null : iso(order.refundedMs),
    currency: order.currency,
    financial_status: order.financialStatus,
    fulfillment_status: order.fulfillmentStatus,
    sales_channel: order.salesChannel,
    is_first_order: order.isFirstOrder,
    customer_order_sequence: order.customerOrderSequence,
    is_subscription_renewal: order.isSubscriptionRenewal,
    economics: {
      gross_revenue: toAmount(e.grossRevenue),
      shipping_revenue: toAmount(e.shippingRevenue),
      discount: toAmount(e.discount),
      tax: toAmount(e.tax),
      tax_included_in_price: order.taxIncludedInPrice,
      refunds: toAmount(e.refunds),
      net_revenue: toAmount(e.netRevenue),
      cogs: toAmount(e.cogs),
      cogs_source: order.cogsSource,
      cogs_coverage_pct: e.cogsCoveragePct,
      fulfillment_cost: toAmount(e.fulfillmentCost),
      fulfillment_cost_source: order.fulfillmentCostSource,
      payment_fee: toAmount(e.paymentFee),
      ad_spend_allocated: toAmount(e.adSpend),
      ad_spend_basis: order.adSpendBasis,
      contribution_profit: toAmount(e.contributionProfit),
      contribution_margin_pct: e.contributionMarginPct,
      allocated_overhead: toAmount(e.allocatedOverhead),
      net_profit: toAmount(e.netProfit),
      net_margin_pct: e.netMarginPct,
    },
    attribution: { ...order.attribution },
    shipping_country_code: order.shippingCountryCode,
    customer_ref: order.customerRef,
    line_items: order.lines.map((l) => ({
      id: l.id,
      sku: l.sku,
      name: l.name,
      product_id: l.productId,
      variant_id: l.variantId,
      quantity: l.quantity,
      price: toAmount(l.price),
      total: toAmount(l.total),
      cogs: toAmount(l.cogs),
      fulfillment_cost: toAmount(l.fulfillmentCost),
      refund_amount: toAmount(l.refundAmount),
      refunded_quantity: l.refundedQuantity,
    })),
  };
}

function costJson(cost: CostRecord | null): Cost | null {
  if (!cost) return null;
  return {
    unit_cost: toAmount(cost.unitCost),
    handling_cost: toAmount(cost.handlingCost),
    currency: cost.currency,
    effective_from: iso(cost.effectiveFromMs),
    source: cost.source,
    cost_is_tiered: cost.tiered,
    cost_is_market_specific: cost.marketSpecific,
  };
}

/** The product's own cost is its first variant's (the base variant a storefront shows). */
export function productJson(product: ProductRecord): Product {
  return {
    id: product.id,
    external_product_id: product.externalId,
    name: product.name,
    sku: product.sku,
    price: toAmount(product.price),
    status: product.status,
    url: product.url,
    image_url: product.imageUrl,
    compare_at_price: toAmount(product.compareAtPrice),
    created_at: iso(product.createdMs),
    updated_at: iso(product.updatedMs),
    cogs: costJson(product.variants[0]?.cogs ?? null),
    variants: product.variants.map((v) => ({
      id: v.id,
      external_variant_id: v.externalId,
      title: v.title,
      sku: v.sku,
      barcode: v.barcode,
      position: v.position,
      status: v.status,
      price: toAmount(v.price),
      cogs: costJson(v.cogs),
    })),
  };
}
