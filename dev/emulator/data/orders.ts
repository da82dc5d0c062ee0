import { roundCents, type Cents } from '../money.js';
import { SeededRandom, sortableId } from '../random.js';
import { localDate } from '../timezone.js';
import { appliedCost } from './catalog.js';
import {
  CANCELLED_STATUS,
  type AttributionRecord,
  type LineRecord,
  type OrderRecord,
  type ProductRecord,
  type StoreRecord,
} from './model.js';

const DAY_MS = 86_400_000;

const COUNTRIES: ReadonlyArray<readonly [string, number]> = [
  ['US', 70],
  ['CA', 8],
  ['GB', 8],
  ['DE', 5],
  ['AU', 5],
  ['FR', 4],
];
/** Sales tax rate by shipping country, and whether prices there include it. */
const TAX: Record<string, { rate: number; included: boolean }> = {
  US: { rate: 0.0725, included: false },
  CA: { rate: 0.13, included: false },
  GB: { rate: 0.2, included: true },
  DE: { rate: 0.19, included: true },
  AU: { rate: 0.1, included: true },
  FR: { rate: 0.2, included: true },
};
const SOURCES: ReadonlyArray<readonly [string, number]> = [
  ['paid_social', 22],
  ['paid_search', 18],
  ['organic_search', 16],
  ['email', 14],
  ['direct', 18],
  ['referral', 7],
  ['affiliate', 5],
];
const PAID = new Set(['paid_social', 'paid_search', 'affiliate']);
const UTM_SOURCE: Record<string, string> = {
  paid_social: 'facebook',
  paid_search: 'google',
  email: 'klaviyo',
  affiliate: 'impact',
  referral: 'partner-blog',
  organic_search: 'google',
  direct: 'direct',
};
const UTM_MEDIUM: Record<string, string> = {
  paid_social: 'paid_social',
  paid_search: 'cpc',
  email: 'email',
  affiliate: 'affiliate',
  referral: 'referral',
  organic_search: 'organic',
  direct: 'none',
};
const CAMPAIGNS = ['spring_sale', 'bfcm', 'retargeting', 'new_arrivals', 'loyalty', 'brand'];
const REFERRERS: Record<string, string> = {
  paid_social: 'https://l.facebook.com/',
  paid_search: 'https://www.google.com/',
  organic_search: 'https://www.google.com/',
  email: 'https://mail.google.com/',
  direct: '',
  referral: 'https://partner-blog.example/',
  affiliate: 'https://impact.example/',
};

/** Everything an order is built from: the store, its catalogue and the customer pool. */
export class OrderFactory {
  private readonly customers: Array<{ ref: string; orders: number; subscriber: boolean }> = [];
  private orderNumber = 1001;
  private externalId = 5_200_000_000;

  constructor(
    readonly store: StoreRecord,
    private readonly products: readonly ProductRecord[],
    private readonly seed: number,
    customerPool: number,
    random: SeededRandom,
  ) {
    for (let i = 0; i < Math.max(1, customerPool); i++) {
      this.customers.push({ ref: `cus_${random.token(14)}`, orders: 0, subscriber: random.chance(0.12) });
    }
  }

  /** Blended ad spend per revenue cent for one store day: the same for every order of that day. */
  adRate(date: string): number {
    let h = this.seed ^ 0x5bd1e995;
    for (let i = 0; i < date.length; i++) h = Math.imul(h ^ date.charCodeAt(i), 0x01000193);
    return 0.05 + ((h >>> 0) % 2000) / 10000;
  }

  build(createdMs: number, random: SeededRandom): OrderRecord {
    const b2b = random.chance(0.08);
    // Few customers order often: a square bias towards the start of the pool.
    const customer = this.customers[Math.floor(random.float() ** 2 * this.customers.length)]!;
    customer.orders += 1;
    const country = b2b ? 'US' : random.weighted(COUNTRIES);
    const tax = TAX[country]!;
    const lines = this.buildLines(createdMs, b2b, country === 'US', random);
    const gross = lines.reduce((s, l) => s + l.total, 0);
    const shippingRevenue = b2b ? (random.chance(0.5) ? 0 : 2500) : gross >= 7500 ? 0 : 599;
    const taxCents = b2b ? 0 : tax.included ? roundCents(gross - gross / (1 + tax.rate)) : roundCents(gross * tax.rate);
    const charged = gross + shippingRevenue + (tax.included ? 0 : taxCents);
    const paymentFee =
      charged === 0
        ? 0
        : b2b
          ? random.chance(0.6)
            ? 0
            : roundCents(charged * 0.01)
          : roundCents(charged * 0.029) + 30;
    const date = localDate(createdMs, this.store.timezone);
    const source = b2b ? 'direct' : random.weighted(SOURCES);
    const renewal = customer.orders > 1 && customer.subscriber && random.chance(0.7);
    this.externalId += random.int(1, 40);
    return {
      id: sortableId('ord_', createdMs, random),
      externalId: String(this.externalId),
      orderNumber: `#${this.orderNumber++}`,
      platform: this.store.platform,
      storeId: this.store.id,
      createdMs,
      updatedMs: createdMs,
      canceledMs: null,
      refundedMs: null,
      localDate: date,
      currency: this.store.currency,
      financialStatus: 'paid',
      fulfillmentStatus: 'unfulfilled',
      salesChannel: b2b ? 'b2b' : 'd2c',
      isFirstOrder: customer.orders === 1,
      customerOrderSequence: customer.orders,
      isSubscriptionRenewal: renewal,
      shippingCountryCode: country,
      customerRef: customer.ref,
      attribution: this.buildAttribution(renewal ? 'email' : source, random),
      lines,
      shippingRevenue,
      tax: taxCents,
      taxIncludedInPrice: !b2b && tax.included,
      cogsSource: lines.some((l) => l.costKnown) ? 'product_cost' : 'unknown',
      fulfillmentCostSource: 'estimate',
      paymentFee,
      adSpend: b2b ? 0 : roundCents(gross * this.adRate(date)),
      adSpendBasis: b2b ? 'not_allocated' : 'blended_daily',
    };
  }

  private buildLines(createdMs: number, b2b: boolean, homeMarket: boolean, random: SeededRandom): LineRecord[] {
    const count = b2b
      ? random.int(2, 6)
      : random.weighted([
          [1, 50],
          [2, 30],
          [3, 14],
          [4, 6],
        ]);
    const lines: LineRecord[] = [];
    for (let i = 0; i < count; i++) {
      const product = random.pick(this.products);
      const variant = random.pick(product.variants);
      const quantity = b2b
        ? random.int(5, 40)
        : random.weighted([
            [1, 75],
            [2, 17],
            [3, 6],
            [5, 2],
          ]);
      const list = variant.price * quantity;
      const discount = random.chance(0.02)
        ? list
        : random.chance(0.15)
          ? roundCents(list * random.pick([0.1, 0.15, 0.2, 0.3]))
          : 0;
      const cost = appliedCost(variant.cogs, quantity, homeMarket);
      lines.push({
        id: sortableId('li_', createdMs, random),
        sku: variant.sku,
        name: variant.title === 'Default Title' ? product.name : `${product.name} - ${variant.title}`,
        productId: product.id,
        variantId: variant.id,
        quantity,
        price: variant.price,
        discount,
        total: list - discount,
        cogs: cost ? cost.cogs : 0,
        handling: cost ? cost.handling : 0,
        costKnown: cost !== null,
        fulfillmentCost: 0,
        shippingCost: 0,
        refundAmount: 0,
        refundedQuantity: 0,
      });
    }
    return lines;
  }

  private buildAttribution(source: string, random: SeededRandom): AttributionRecord {
    const tagged = PAID.has(source) || source === 'email' || (source !== 'direct' && random.chance(0.4));
    return {
      primary_source: source,
      is_paid: PAID.has(source),
      utm_source: tagged ? UTM_SOURCE[source]! : null,
      utm_medium: tagged ? UTM_MEDIUM[source]! : null,
      utm_campaign: tagged && random.chance(0.9) ? random.pick(CAMPAIGNS) : null,
      utm_term:
        tagged && source === 'paid_search' && random.chance(0.7)
          ? random.pick(['tote bag', 'merino socks', 'gift ideas'])
          : null,
      utm_content: tagged && random.chance(0.5) ? random.pick(['video_a', 'carousel', 'static_b']) : null,
      landing_page: random.pick(['/', '/collections/all', '/products/everyday-tee', '/pages/sale']),
      referrer: REFERRERS[source] ?? '',
      device_type: random.weighted([
        ['mobile', 62],
        ['desktop', 33],
        ['tablet', 5],
      ]),
    };
  }
}

/** Puts the fulfilment cost on the lines: a shipping label shared by units, plus pick-and-pack per unit. */
export function fulfil(order: OrderRecord, labelCost: Cents, source: string): void {
  const units = order.lines.reduce((s, l) => s + l.quantity, 0) || 1;
  let labelLeft = labelCost;
  order.lines.forEach((line, i) => {
    const share = i === order.lines.length - 1 ? labelLeft : Math.floor((labelCost * line.quantity) / units);
    labelLeft -= share;
    line.shippingCost += share;
    line.fulfillmentCost += share + 50 * line.quantity;
  });
  order.fulfillmentStatus = 'fulfilled';
  order.fulfillmentCostSource = source;
}

/** Refunds `quantity` more units of one line (pro rata of its total), or everything when quantity is null. */
export function refundUnits(
  order: OrderRecord,
  line: OrderRecord['lines'][number] | null,
  quantity: number | null,
): void {
  const targets = line ? [line] : order.lines;
  for (const l of targets) {
    const units =
      quantity === null ? l.quantity - l.refundedQuantity : Math.min(quantity, l.quantity - l.refundedQuantity);
    l.refundedQuantity += units;
    l.refundAmount =
      l.refundedQuantity === l.quantity
        ? l.total
        : Math.min(l.total, roundCents((l.total * l.refundedQuantity) / l.quantity));
  }
  const all = order.lines.every((l) => l.refundedQuantity === l.quantity);
  if (order.canceledMs === null) order.financialStatus = all ? 'refunded' : 'partially_refunded';
}

export function cancel(order: OrderRecord, atMs: number): void {
  refundUnits(order, null, null);
  for (const line of order.lines) {
    // Cancelled before shipping: nothing was picked or sent, no goods left the warehouse.
    line.cogs = 0;
    line.handling = 0;
    line.fulfillmentCost = 0;
    line.shippingCost = 0;
  }
  order.canceledMs = atMs;
  order.financialStatus = CANCELLED_STATUS;
  order.fulfillmentStatus = 'unfulfilled';
}

/**
 * Plays an order's life up to `untilMs`: fulfilment, then maybe a refund or cancellation. The
 * change marker is the last event's instant.
 */
export function playHistory(order: OrderRecord, untilMs: number, random: SeededRandom): void {
  const at = (delayMs: number): number | null =>
    order.createdMs + delayMs <= untilMs ? order.createdMs + delayMs : null;
  const fate = random.weighted([
    ['normal', 88],
    ['refund', 4],
    ['partial', 5],
    ['cancel', 3],
  ]);
  if (fate === 'cancel') {
    const t = at(random.int(10, 2 * 24 * 60) * 60_000);
    if (t !== null) {
      cancel(order, t);
      order.updatedMs = t;
    }
    return;
  }
  const label = order.salesChannel === 'b2b' ? random.int(2500, 9000) : random.int(400, 1200);
  const shipped = at(random.int(2, 72) * 3600_000);
  if (shipped === null) {
    order.financialStatus = 'processing';
    fulfil(order, label, 'estimate');
    order.fulfillmentStatus = 'unfulfilled';
    return;
  }
  fulfil(order, label, random.chance(0.7) ? 'carrier_invoice' : 'rate_table');
  order.financialStatus = random.chance(0.6) ? 'completed' : 'paid';
  order.updatedMs = shipped;
  if (fate === 'normal') return;
  const refundedAt = at(random.int(3, 30) * DAY_MS);
  if (refundedAt === null) return;
  if (fate === 'refund') refundUnits(order, null, null);
  else refundUnits(order, random.pick(order.lines), 1);
  order.refundedMs = refundedAt;
  order.updatedMs = refundedAt;
}

/** Fresh random stream derived from the seed and a purpose, so streams do not shift each other. */
export function streamFor(seed: number, purpose: number): SeededRandom {
  return new SeededRandom((seed * 2654435761 + purpose * 40503) >>> 0);
}
