/**
 * The workbook's view of the chosen columns (the column choice), kept in the sync state: a
 * layout is saved with the columns its existing rows lack, which the fill pass then writes.
 */
import type { ColumnSettings } from '../sheets/managed-workbook';
import type { ChoosableTable } from '../sheets/column-choice';
import type { SyncStateStore } from './sync-state';
import type { ColumnFill } from './columns-state';

export function columnSettings(state: SyncStateStore, now: () => number): ColumnSettings {
  const current = state.get('columns');
  return {
    choice: current.choice,
    layouts: current.layouts,
    saveLayout(table, layout, fill, created) {
      const stored = state.reload('columns');
      state.save('columns', {
        ...stored,
        layouts: { ...stored.layouts, [table]: layout },
        fill: nextFill(stored.fill, table, fill, created, now()),
      });
    },
  };
}

/**
 * The fill pass after a layout change: a sheet set up afresh needs none (every row is written
 * whole); new columns join those still to fill, and the pass restarts so the orders it has already
 * read get them too.
 */
function nextFill(
  fill: ColumnFill | null,
  table: ChoosableTable,
  headers: readonly string[],
  created: boolean,
  now: number,
): ColumnFill | null {
  const columns = { ...(fill?.columns ?? {}) };
  if (created) delete columns[table];
  const adding = created ? [] : headers.filter((h) => (columns[table] ?? []).indexOf(h) < 0);
  if (adding.length > 0) columns[table] = [...(columns[table] ?? []), ...adding];
  const pending = Object.values(columns).some((list) => list !== undefined && list.length > 0);
  if (!pending) return null;
  if (adding.length === 0 && fill) return { ...fill, columns };
  return { columns, startedAt: now, watermark: null, orders: 0 };
}
