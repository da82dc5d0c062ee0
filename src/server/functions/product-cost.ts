/**
 * =PRODUCT_COST(sku_or_id, [field]): the current base cost of a product or variant (spec 2.7),
 * fresh from the API. Unknown stays unknown — an empty cost with cost_status "unknown", never 0 —
 * and a cost that tiered or market-specific prices complete says it is partial.
 */
import type { Product, Variant } from '../api/types';
import { PRODUCTS, VARIANTS } from '../sheets/schema';
import { FormulaError } from './args';
import { readableAnswer } from './readable-answer';
import { customFunctionContext } from './context';
import { withUserMessages } from './user-messages';
import { findInSheet } from './sheet-lookup';
import type { Cell, Table } from './tables';

const FN = 'PRODUCT_COST';

type Cost = NonNullable<Product['cogs']>;

const FIELDS = [
  'product_id',
  'variant_id',
  'sku',
  'name',
  'cost_status',
  'unit_cost',
  'handling_cost',
  'currency',
  'effective_from',
  'source',
  'cost_is_tiered',
  'cost_is_market_specific',
] as const;
type Field = (typeof FIELDS)[number];

/** Where a SKU is: the product it belongs to, and the variant when it is a variant's. */
interface Located {
  productId: string;
  variantSku: string | null;
}

function locate(reference: string): Located {
  if (/^prd_[A-Za-z0-9_-]+$/.test(reference) || /^external:[A-Za-z0-9_-]+$/.test(reference))
    return { productId: reference, variantSku: null };
  const variant = findInSheet(VARIANTS, 'sku', [reference], 'product_id');
  if (variant) return { productId: variant.key, variantSku: reference };
  const product = findInSheet(PRODUCTS, 'sku', [reference]);
  if (product) return { productId: product.key, variantSku: null };
  throw new FormulaError(
    FN,
    `no product or variant with SKU "${reference.slice(0, 60)}" in the Products or Variants sheet: run Sync now if it is new, or give the product id (prd_…)`,
  );
}

/** "known", "partial: …" or "unknown: …" — what a finance reader must know before using the number. */
export function costStatus(cost: Cost | null): string {
  if (cost === null) return 'unknown: no cost is recorded, so profit is overstated wherever it sells';
  if (cost.cost_is_tiered && cost.cost_is_market_specific)
    return 'partial: quantity-tier and per-market costs also exist; this is the base cost only';
  if (cost.cost_is_tiered) return 'partial: quantity-tier costs also exist; this is the base cost only';
  if (cost.cost_is_market_specific) return 'partial: per-market costs also exist; this is the base cost only';
  return 'known';
}

function costRecord(product: Product, variant: Variant | null): Record<Field, Cell> {
  const cost: Cost | null = (variant ? variant.cogs : product.cogs) ?? null;
  const from = cost ? Date.parse(cost.effective_from) : NaN;
  return {
    product_id: product.id,
    variant_id: variant ? variant.id : '',
    sku: (variant ? variant.sku : product.sku) ?? '',
    name: variant ? `${product.name} — ${variant.title}` : product.name,
    cost_status: costStatus(cost),
    unit_cost: cost ? cost.unit_cost : '',
    handling_cost: cost ? cost.handling_cost : '',
    currency: cost ? cost.currency : '',
    effective_from: Number.isNaN(from) ? '' : new Date(from),
    source: cost ? cost.source : '',
    cost_is_tiered: cost ? cost.cost_is_tiered : '',
    cost_is_market_specific: cost ? cost.cost_is_market_specific : '',
  };
}

function fieldArgument(value: unknown): Field | null {
  if (value === undefined || value === null || value === '') return null;
  const name =
    typeof value === 'string'
      ? value
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : '';
  if ((FIELDS as readonly string[]).indexOf(name) >= 0) return name as Field;
  throw new FormulaError(FN, `field must be one of ${FIELDS.join(', ')}`);
}

export function productCost(skuOrId: unknown, field?: unknown): Table {
  return withUserMessages(FN, () => {
    if (Array.isArray(skuOrId)) throw new FormulaError(FN, 'sku_or_id must be a single cell, not a range');
    const reference = typeof skuOrId === 'number' ? String(skuOrId) : typeof skuOrId === 'string' ? skuOrId.trim() : '';
    if (reference === '')
      throw new FormulaError(
        FN,
        'sku_or_id is required: a SKU, a product id (prd_…) or external:<platform product id>',
      );
    const wanted = fieldArgument(field);
    const where = locate(reference);
    const { client } = customFunctionContext();
    const product = readableAnswer(FN, client.getProduct(where.productId));
    const sku = where.variantSku === null ? null : where.variantSku.toLowerCase();
    const variant =
      sku === null ? null : ((product.variants ?? []).find((v) => String(v.sku).toLowerCase() === sku) ?? null);
    if (sku !== null && variant === null)
      throw new FormulaError(
        FN,
        `product ${product.id} no longer lists SKU "${where.variantSku!.slice(0, 60)}": run Sync now`,
      );
    const record = costRecord(product, variant);
    if (wanted !== null) {
      // One value for a report cell: an unknown cost reads "unknown", never an empty cell that sums as 0.
      const value = record[wanted];
      return [[value === '' && (wanted === 'unit_cost' || wanted === 'handling_cost') ? 'unknown' : value]];
    }
    return [['field', 'value'], ...FIELDS.map((f): Cell[] => [f, record[f]])];
  });
}
