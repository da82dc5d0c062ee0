/** One page of products → row writes for Products and Variants. Pure, like the order page. */
import type { Product, Variant } from '../api/types';
import type { CellValue } from '../sheets/cells';
import { instantToSerial } from '../platform/calendar';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';
import { indexCellsOf, isUnchanged } from '../sheets/change-check';
import { buildRow } from '../sheets/rows';
import { PRODUCTS, VARIANTS } from '../sheets/schema';
import type { MemberIndex } from './members';
import { lastOccurrences, type PageContext, type PageCounts } from './order-page';
import { recordProblem, skippedRecord, updatedAtMs, type SkippedRecord } from '../api/record-check';

export interface ProductPageWrites {
  products: RowWrite[];
  variants: RowWrite[];
  counts: PageCounts;
  maxUpdatedAt: string | null;
  /** Products that could not be turned into cells: nothing of them written. */
  skipped: SkippedRecord[];
  /** Ids of the products the page wrote or found unchanged. */
  written: string[];
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
  const writes: ProductPageWrites = {
    products: [],
    variants: [],
    counts: { inserted: 0, updated: 0, cancelled: 0, children: 0 },
    maxUpdatedAt: null,
    skipped: [],
    written: [],
  };
  const syncedIso = new Date(ctx.syncedAt).toISOString();
  let maxMs = -Infinity;
  for (const product of lastOccurrences(page)) {
    const updatedMs = updatedAtMs(product);
    if (!Number.isNaN(updatedMs) && updatedMs > maxMs) {
      maxMs = updatedMs;
      writes.maxUpdatedAt = product.updated_at;
    }
    // Every cell is built before the key indexes are touched: a product that cannot be written leaves no trace.
    const problem = recordProblem(product);
    let built: { cells: CellValue[]; variantRows: Array<{ key: string; cells: CellValue[] }> };
    try {
      if (problem !== null) throw new Error(problem);
      built = buildProduct(product, syncedIso, ctx.spreadsheetTimeZone);
    } catch (e) {
      writes.skipped.push(skippedRecord(product, null, e));
      continue;
    }
    writes.written.push(product.id);
    const { cells, variantRows } = built;
    // Returned again with the same change marker (overlap, at-least-once feed) and every variant row
    // still there: nothing to write. (Deleted variant rows, or a Variants sheet built again, are put back.)
    if (
      isUnchanged(PRODUCTS, products.get(product.id), cells) &&
      variantRows.every((v) => variants.get(v.key) !== undefined)
    )
      continue;
    const { row, inserted } = products.put(product.id, indexCellsOf(PRODUCTS, cells));
    writes.products.push({ row, column: 1, cells });
    if (inserted) writes.counts.inserted++;
    else writes.counts.updated++;
    const keys: string[] = [];
    for (const variant of variantRows) {
      keys.push(variant.key);
      const placed = variants.put(variant.key, variant.cells.slice(0, VARIANTS.indexColumns));
      writes.variants.push({ row: placed.row, column: 1, cells: variant.cells });
    }
    const removed = members.replaceChildren(product.id, keys, instantToSerial(ctx.syncedAt, ctx.spreadsheetTimeZone));
    writes.variants.push(...removed);
    writes.counts.children += keys.length + removed.length;
  }
  return writes;
}

function buildProduct(
  product: Product,
  syncedIso: string,
  timeZone: string,
): { cells: CellValue[]; variantRows: Array<{ key: string; cells: CellValue[] }> } {
  const cells = buildRow(PRODUCTS, product, { synced_at: syncedIso }, timeZone);
  const listed = Array.isArray(product.variants) ? product.variants : [];
  const variantRows = listed.map((variant) => {
    const key = variantKey(variant);
    return {
      key,
      cells: buildRow(
        VARIANTS,
        variant,
        { id: key, product_id: product.id, sync_status: 'active', synced_at: syncedIso },
        timeZone,
      ),
    };
  });
  return { cells, variantRows };
}
