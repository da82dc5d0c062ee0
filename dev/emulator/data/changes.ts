import { roundCents } from '../money.js';
import type { SeededRandom } from '../random.js';
import { sortableId } from '../random.js';
import type { OrderRecord, ProductRecord } from './model.js';
import { cancel, refundUnits } from './orders.js';

export const ORDER_CHANGE_KINDS = [
  'cost_correction',
  'late_fulfillment',
  'ad_spend',
  'attribution',
  'refund',
  'partial_refund',
  'cancel',
] as const;
export type OrderChangeKind = (typeof ORDER_CHANGE_KINDS)[number];
export const PRODUCT_CHANGE_KINDS = ['cost_correction', 'price', 'new_variant'] as const;
export type ProductChangeKind = (typeof PRODUCT_CHANGE_KINDS)[number];

/** A change that cannot apply to the record as it stands (e.g. cancelling a cancelled order). */
export class ChangeConflict extends Error {}

/** Applies one change of spec 3.1 to an order's figures; the caller then advances its change marker. */
export function applyOrderChange(order: OrderRecord, kind: OrderChangeKind, nowMs: number, random: SeededRandom): void {
  switch (kind) {
    case 'cost_correction': {
      const line = random.pick(order.lines);
      if (!line.costKnown) {
        line.costKnown = true;
        line.cogs = roundCents(line.price * line.quantity * 0.4);
      } else {
        const corrected = roundCents(line.cogs * random.pick([0.85, 0.9, 1.1, 1.15]));
        line.cogs = corrected === line.cogs ? line.cogs + 25 * line.quantity : corrected;
      }
      line.handling = Math.min(line.handling, line.cogs);
      order.cogsSource = 'manual_correction';
      return;
    }
    case 'late_fulfillment': {
      const line = order.lines[order.lines.length - 1]!;
      const extra = random.int(150, 800);
      line.shippingCost += extra;
      line.fulfillmentCost += extra;
      order.fulfillmentCostSource = 'carrier_invoice';
      if (order.canceledMs === null) {
        order.fulfillmentStatus = 'fulfilled';
        if (order.financialStatus === 'processing') order.financialStatus = 'paid';
      }
      return;
    }
    case 'ad_spend': {
      const delta = random.int(50, 600) * (order.adSpend > 600 && random.chance(0.5) ? -1 : 1);
      order.adSpend = Math.max(0, order.adSpend + delta);
      order.adSpendBasis = 'blended_daily';
      return;
    }
    case 'attribution': {
      const a = order.attribution;
      if (a.primary_source === 'direct') {
        a.primary_source = 'paid_search';
        a.is_paid = true;
      }
      a.utm_source ??= 'google';
      a.utm_medium ??= 'cpc';
      a.utm_term ??= 'merino socks';
      a.utm_content ??= 'enriched_ad';
      a.utm_campaign = a.utm_campaign === null ? 'enriched_campaign' : `${a.utm_campaign}_enriched`;
      return;
    }
    case 'refund': {
      if (order.canceledMs !== null) throw new ChangeConflict('the order is cancelled');
      if (order.lines.every((l) => l.refundedQuantity === l.quantity))
        throw new ChangeConflict('the order is already fully refunded');
      refundUnits(order, null, null);
      order.refundedMs = nowMs;
      return;
    }
    case 'partial_refund': {
      if (order.canceledMs !== null) throw new ChangeConflict('the order is cancelled');
      const open = order.lines.filter((l) => l.refundedQuantity < l.quantity);
      if (open.length === 0) throw new ChangeConflict('the order is already fully refunded');
      refundUnits(order, random.pick(open), 1);
      order.refundedMs = nowMs;
      return;
    }
    case 'cancel':
      if (order.canceledMs !== null) throw new ChangeConflict('the order is already cancelled');
      cancel(order, nowMs);
      return;
  }
}

/** Applies a catalogue change; the caller then advances the product's change marker. */
export function applyProductChange(
  product: ProductRecord,
  kind: ProductChangeKind,
  nowMs: number,
  random: SeededRandom,
  currency: string,
): void {
  switch (kind) {
    case 'cost_correction': {
      const variant = random.pick(product.variants);
      if (variant.cogs === null) {
        variant.cogs = {
          unitCost: roundCents(variant.price * 0.4),
          handlingCost: 0,
          currency,
          effectiveFromMs: nowMs,
          source: 'manual',
          tiered: false,
          marketSpecific: false,
        };
      } else {
        const corrected = roundCents(variant.cogs.unitCost * random.pick([0.9, 1.1]));
        variant.cogs = {
          ...variant.cogs,
          unitCost: corrected === variant.cogs.unitCost ? corrected + 50 : corrected,
          effectiveFromMs: nowMs,
          source: 'manual',
        };
      }
      return;
    }
    case 'price': {
      const factor = random.pick([0.9, 1.1]);
      product.price = roundCents(product.price * factor) || product.price + 100;
      for (const v of product.variants) v.price = product.price;
      product.compareAtPrice = Math.max(product.compareAtPrice, product.price);
      return;
    }
    case 'new_variant': {
      const base = product.variants[product.variants.length - 1]!;
      const position = product.variants.length + 1;
      product.variants.push({
        ...base,
        id: sortableId('var_', nowMs, random),
        externalId: String(Number(base.externalId) + 1000 + position),
        title: `Edition ${position}`,
        sku: `${product.sku}-${position}`,
        barcode: String(Number(base.barcode) + 1000 + position),
        position,
        cogs: base.cogs ? { ...base.cogs, effectiveFromMs: nowMs } : null,
      });
      return;
    }
  }
}
