/** One page of products → row writes for Products and Variants. Pure, like order-page.ts. */
import type { Product, Variant } from '../api/types';
import { instantToSerial } from '../sheets/cells';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';
import { indexCellsOf, isUnchanged } from '../sheets/change-check';
import { buildRow } from '../sheets/rows';
import { PRODUCTS, VARIANTS } from '../sheets/schema';
import type { MemberIndex } from './members';
import { lastOccurrences, type PageContext, type PageCounts } from './order-page';

export interface ProductPageWrites {
  products: RowWrite[];
  variants: RowWrite[];
  counts: PageCounts;
  maxUpdatedAt: string | null;
}

/** A variant's key: its service id, else the platform's id (the spec lists no variant id). */
export function variantKey(variant: Variant): string {
  return variant.id ? String(variant.id) : `external:${variant.external_variant_id}`;
}

export function planProductPage(
  page: readonly Product[],
  products: KeyIndex,
  variants: KeyIndex,
  members: MemberIndex,
  ctx: PageContext,
): ProductPageWrites {
  const writes: ProductPageWrites = { products: [], variants: [], counts: { inserted: 0, updated: 0, cancelled: 0, children: 0 }, maxUpdatedAt: null };
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  let maxMs = -Infinity;
  for (const product of lastOccurrences(page)) {
    const cells = buildRow(PRODUCTS, product, { synced_at: syncedIso }, ctx.spreadsheetTimeZone);
    const updatedMs = Date.parse(product.updated_at);
    if (!Number.isNaN(updatedMs) && updatedMs > maxMs) {
      maxMs = updatedMs;
      writes.maxUpdatedAt = product.updated_at;
    }
    const listed = Array.isArray(product.variants) ? product.variants : [];
    // Returned again with the same change marker (overlap, at-least-once feed) and every variant row
    // still there: nothing to write. (Deleted variant rows, or a Variants sheet built again, are put back.)
    if (isUnchanged(PRODUCTS, products.get(product.id), cells) && listed.every((v) => variants.get(variantKey(v)) !== undefined)) continue;
    const { row, inserted } = products.put(product.id, indexCellsOf(PRODUCTS, cells));
    writes.products.push({ row, column: 1, cells });
    if (inserted) writes.counts.inserted++;
    else writes.counts.updated++;
    const keys: string[] = [];
    for (const variant of Array.isArray(product.variants) ? product.variants : []) {
      const key = variantKey(variant);
      keys.push(key);
      const variantCells = buildRow(
        VARIANTS,
        variant,
        { id: key, product_id: product.id, sync_status: 'active', synced_at: syncedIso },
        ctx.spreadsheetTimeZone,
      );
      const placed = variants.put(key, variantCells.slice(0, VARIANTS.indexColumns));
      writes.variants.push({ row: placed.row, column: 1, cells: variantCells });
    }
    const removed = members.replaceChildren(product.id, keys, instantToSerial(ctx.syncedAt, ctx.spreadsheetTimeZone));
    writes.variants.push(...removed);
    writes.counts.children += keys.length + removed.length;
  }
  return writes;
}
