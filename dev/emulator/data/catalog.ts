import { roundCents, type Cents } from '../money.js';
import { sortableId, type SeededRandom } from '../random.js';
import type { CostRecord, ProductRecord, StoreRecord, VariantRecord } from './model.js';

const ADJECTIVES = [
  'Organic',
  'Classic',
  'Everyday',
  'Premium',
  'Recycled',
  'Merino',
  'Travel',
  'Studio',
  'Trail',
  'Heritage',
  'Linen',
  'Canvas',
];
const NOUNS = [
  'Tee',
  'Hoodie',
  'Beanie',
  'Tote Bag',
  'Water Bottle',
  'Candle',
  'Notebook',
  'Mug',
  'Sock Pack',
  'Backpack',
  'Scarf',
  'Cap',
  'Apron',
  'Throw Blanket',
];
const SIZES = ['S', 'M', 'L', 'XL'];
const COLOURS = ['Black', 'Sand', 'Forest', 'Navy', 'Clay'];
const COST_SOURCES = ['csv_import', 'shopify_cost_per_item', 'manual', 'supplier_feed'];

/** How a product's cost is known: the shapes spec 2.7 distinguishes. */
type CostKind = 'unknown' | 'free' | 'plain' | 'tiered' | 'market' | 'mixed';

function costFor(
  kind: CostKind,
  price: Cents,
  currency: string,
  effectiveFromMs: number,
  random: SeededRandom,
): CostRecord | null {
  if (kind === 'unknown') return null;
  const free = kind === 'free';
  return {
    unitCost: free ? 0 : roundCents(price * (0.22 + random.float() * 0.33)),
    handlingCost: free ? 0 : random.chance(0.5) ? 0 : random.int(10, 150),
    currency,
    effectiveFromMs,
    source: random.pick(COST_SOURCES),
    tiered: kind === 'tiered',
    marketSpecific: kind === 'market',
  };
}

export function generateProducts(
  store: StoreRecord,
  count: number,
  startMs: number,
  endMs: number,
  random: SeededRandom,
): ProductRecord[] {
  const products: ProductRecord[] = [];
  const span = Math.max(1, endMs - startMs);
  for (let i = 0; i < count; i++) {
    const createdMs = startMs - span * 0.2 + Math.floor(random.float() * span * 0.2);
    const kind = random.weighted<CostKind>([
      ['plain', 60],
      ['unknown', 10],
      ['free', 5],
      ['tiered', 10],
      ['market', 8],
      ['mixed', 7],
    ]);
    const name = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}${i >= 40 ? ` ${i}` : ''}`;
    const price: Cents =
      kind === 'free'
        ? random.chance(0.5)
          ? 0
          : random.int(100, 500)
        : random.int(8, 180) * 100 - random.pick([0, 1, 5]);
    const productNumber = 7_100_000_000 + i * 7919 + random.int(0, 7000);
    const id = sortableId('prd_', createdMs, random);
    const sku = `SKU-${String(1000 + i)}`;
    const variantCount = random.weighted([
      [1, 40],
      [2, 25],
      [3, 20],
      [4, 15],
    ]);
    const useSizes = random.chance(0.5);
    const variants: VariantRecord[] = [];
    for (let v = 0; v < variantCount; v++) {
      const variantKind: CostKind = kind === 'mixed' ? (v % 2 === 1 ? 'unknown' : 'plain') : kind;
      variants.push({
        id: sortableId('var_', createdMs, random),
        externalId: String(41_000_000_000 + i * 100 + v),
        title: variantCount === 1 ? 'Default Title' : (useSizes ? SIZES : COLOURS)[v]!,
        sku: variantCount === 1 ? sku : `${sku}-${v + 1}`,
        barcode: String(400_000_000_000 + i * 10 + v),
        position: v + 1,
        status: 'active',
        price,
        cogs: costFor(variantKind, price, store.currency, createdMs, random),
      });
    }
    products.push({
      id,
      externalId: String(productNumber),
      storeId: store.id,
      name,
      sku,
      price,
      compareAtPrice: random.chance(0.3) ? price + random.int(5, 40) * 100 : price,
      status: random.weighted([
        ['active', 90],
        ['archived', 7],
        ['draft', 3],
      ]),
      url: `https://${store.domain}/products/${slug(name)}`,
      imageUrl: `https://cdn.example-shop.test/${store.id}/${productNumber}.jpg`,
      createdMs,
      updatedMs: createdMs + random.int(0, 30) * 86_400_000,
      variants,
    });
  }
  products.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return products;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The cost applied to a sale of `quantity` units, as the pricing engine resolves it: quantity tiers
 * take 10% off the unit cost from 3 units, market-specific costs add 8% outside the home market.
 * Returns null when the cost is unknown.
 */
export function appliedCost(
  cost: CostRecord | null,
  quantity: number,
  homeMarket: boolean,
): { cogs: Cents; handling: Cents } | null {
  if (!cost) return null;
  let unit = cost.unitCost;
  if (cost.tiered && quantity >= 3) unit = roundCents(unit * 0.9);
  if (cost.marketSpecific && !homeMarket) unit = roundCents(unit * 1.08);
  const handling = cost.handlingCost * quantity;
  return { cogs: unit * quantity + handling, handling };
}
