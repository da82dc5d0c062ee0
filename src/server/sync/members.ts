/**
 * Which child rows (line items, variants) a parent (order, product) listed when last written,
 * built from the child sheet's key index (column 2 = parent id, column 3 = sync_status).
 * A child its parent no longer lists is marked 'removed'; rows never move.
 */
import type { CellValue } from '../sheets/cells';
import type { KeyIndex } from '../sheets/key-index';
import type { RowWrite } from '../sheets/row-writes';

export class MemberIndex {
  private readonly byParent = new Map<string, Set<string>>();

  constructor(private readonly children: KeyIndex) {
    // What the index knows now (a sparse one is not read whole for it): later rows come by onAdopt.
    for (const [childId, entry] of children.loadedEntries()) this.link(String(entry.cells[1] ?? ''), childId);
    // Line items are indexed as the run reads their orders' rows (KeyIndex.adopt).
    children.onAdopt((childId, entry) => this.link(String(entry.cells[1] ?? ''), childId));
  }

  private link(parentId: string, childId: string): void {
    if (parentId === '') return;
    let set = this.byParent.get(parentId);
    if (!set) this.byParent.set(parentId, (set = new Set()));
    set.add(childId);
  }

  /** The children the parent listed when last written. */
  childrenOf(parentId: string): readonly string[] {
    return [...(this.byParent.get(parentId) ?? [])];
  }

  /**
   * Records the parent's current children (already put into the child index) and returns the
   * writes that mark the ones it no longer lists as removed (columns sync_status, synced_at).
   */
  replaceChildren(parentId: string, current: readonly string[], syncedAt: CellValue): RowWrite[] {
    const previous = this.byParent.get(parentId) ?? new Set<string>();
    const keep = new Set(current);
    const writes: RowWrite[] = [];
    for (const childId of previous) {
      if (keep.has(childId)) continue;
      const entry = this.children.get(childId);
      if (!entry || String(entry.cells[1]) !== parentId || entry.cells[2] === 'removed') continue;
      entry.cells = [entry.cells[0], entry.cells[1], 'removed'];
      writes.push({ row: entry.row, column: 3, cells: ['removed', syncedAt] });
    }
    this.byParent.set(parentId, keep);
    return writes;
  }
}
