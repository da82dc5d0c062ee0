/**
 * Where a close's orders sit in its `Close YYYY-MM` sheet, so that a run reads only the orders that
 * changed since the close, not the whole order section (a run's cost follows the changed
 * orders, not the store). The close writes its order section sorted by order id and keeps, in one
 * document property per month, every `every`-th id (the fences), how many orders the section holds,
 * the latest updated_at among them and the orders that were gone at close. A run finds an order's
 * block from the fences, reads that block of the id column, then the order's row.
 *
 * An order changed since the close carries a later updated_at than any order held at close (the
 * service stamps a change when it makes it); a gone mark does not move updated_at, so orders gone
 * then and now are named apart. Pure, but for the property's read and write.
 */
import { documentProperties } from '../platform/properties';
import { CLOSE_ORDER_COLUMNS, type OrderFigures } from './close-orders';

const PREFIX = 'ma.closeIndex.';
/** Fences a month keeps at most: one property stays well under Apps Script's 9 kB a value. */
const MAX_FENCES = 300;
/** The fewest rows a block holds: below this, the id reads' ranges cost more than their cells. */
const MIN_BLOCK = 16;

export interface CloseIndex {
  every: number;
  fences: string[];
  count: number;
  /** The latest updated_at (serial) among the orders at close; null when none had one. */
  latest: number | null;
  /** Orders whose status was gone at close. */
  gone: string[];
}

/** Ids in the section's order: plain code-unit comparison, the same at close and at every run. */
export const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function closeIndexOf(sorted: readonly OrderFigures[]): CloseIndex {
  const every = Math.max(MIN_BLOCK, Math.ceil(sorted.length / MAX_FENCES));
  let latest: number | null = null;
  for (const o of sorted) if (o.updatedAt !== null && (latest === null || o.updatedAt > latest)) latest = o.updatedAt;
  return {
    every,
    fences: sorted.filter((_, i) => i % every === 0).map((o) => o.id),
    count: sorted.length,
    latest,
    gone: sorted.filter((o) => o.status === 'gone').map((o) => o.id),
  };
}

export function saveCloseIndex(month: string, index: CloseIndex): void {
  documentProperties().setProperty(PREFIX + month, JSON.stringify(index));
}

/** The month's index from the run's one read of the document properties; null for a close made before indexes were kept. */
export function closeIndexFrom(readAtStart: Readonly<Record<string, string>>, month: string): CloseIndex | null {
  try {
    const saved = JSON.parse(readAtStart[PREFIX + month] ?? 'null') as CloseIndex | null;
    return saved && Array.isArray(saved.fences) && saved.every > 0 && typeof saved.count === 'number' ? saved : null;
  } catch {
    return null;
  }
}

/** The block (0-based) an id would sit in: the last fence not after it; -1 before the first. */
export function blockOf(index: CloseIndex, id: string): number {
  let lo = 0;
  let hi = index.fences.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (index.fences[mid] <= id) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The block's sheet rows (1-based, inclusive), the section's first order row given. */
export function blockRows(index: CloseIndex, block: number, firstRow: number): [number, number] {
  const from = block * index.every;
  return [firstRow + from, firstRow + Math.min(index.count, from + index.every) - 1];
}

/**
 * Orders that may differ from the close, from the Orders index alone: placed in the month and
 * stamped at or after the latest stamp at close (or without one), gone now, or gone at close.
 */
export function changedSinceClose(
  month: string,
  index: CloseIndex,
  now: ReadonlyMap<string, { status: string; placedDate: string | null; updatedAt: number | null }>,
): string[] {
  const out = new Set<string>(index.gone);
  for (const [id, m] of now) {
    if (m.placedDate === null || m.placedDate.slice(0, 7) !== month) continue;
    if (m.status === 'gone' || m.updatedAt === null || index.latest === null || m.updatedAt >= index.latest)
      out.add(id);
  }
  return [...out];
}

export const CLOSE_ORDER_WIDTH = CLOSE_ORDER_COLUMNS.length;
