/**
 * The chosen columns and a sheet's layout (sheets/column-choice.ts, sheets/sheet-layout.ts): what
 * always stays, where a column chosen later goes, and how catalog-ordered rows land in the sheet.
 */
import { describe, expect, it } from 'vitest';
import { chosenHeaders, keptColumns, parseTableChoice } from '../../src/server/sheets/column-choice';
import {
  columnMap,
  layoutSchema,
  newLayout,
  planLayoutChange,
  toCatalogRow,
  toSheetWrites,
  withClearedOn,
} from '../../src/server/sheets/sheet-layout';
import { withoutSkipped, writesOfColumns } from '../../src/server/sheets/row-writes';
import { LINE_ITEMS, ORDERS, TIEOUT_FIGURES } from '../../src/server/sheets/schema';

describe('what a choice keeps', () => {
  it('never drops the keys, the derived columns, or what the add-on reads back', () => {
    const kept = keptColumns(ORDERS);
    for (const header of [
      'id',
      'status',
      'placed_date',
      'gone_at',
      'synced_at',
      'cost_status',
      'updated_at',
      'order_number',
      'currency',
      'cogs_source',
      'cogs_coverage_pct',
    ]) {
      expect(kept.has(header), header).toBe(true);
    }
    for (const f of TIEOUT_FIGURES) expect(kept.has(f.orders), f.orders).toBe(true);
    const custom = chosenHeaders(ORDERS, { preset: 'custom', columns: ['utm_source'] });
    expect(custom).toEqual(ORDERS.columns.map((c) => c.header).filter((h) => kept.has(h) || h === 'utm_source'));
    expect(chosenHeaders(LINE_ITEMS, { preset: 'custom', columns: [] })).toEqual([
      'id',
      'order_id',
      'sync_status',
      'synced_at',
      'cost_status',
      // Its order's number, derived: every Line items sheet shows which order a line belongs to.
      'order_number',
    ]);
  });

  it('refuses an unknown preset or column with its name', () => {
    expect(() => parseTableChoice(ORDERS, { preset: 'most' })).toThrow(/essentials/);
    expect(() => parseTableChoice(ORDERS, { preset: 'custom', columns: ['net_profit', 'nope'] })).toThrow(
      'Orders has no column "nope"',
    );
    expect(parseTableChoice(ORDERS, { preset: 'custom', columns: ['utm_source'] }).columns).toContain('id');
  });
});

describe('a layout following the choice', () => {
  const essentials = newLayout(ORDERS, { preset: 'essentials' });
  const all = chosenHeaders(ORDERS, { preset: 'all' });

  it('adds chosen columns right of everything the sheet holds, in catalog order', () => {
    const change = planLayoutChange(
      essentials,
      all,
      () => essentials.columns.length + 2,
      () => [...essentials.columns, 'my note'],
    )!;
    expect(change.add[0]).toEqual({
      header: all.find((h) => essentials.columns.indexOf(h) < 0),
      column: essentials.columns.length + 2,
    });
    expect(change.layout.columns[essentials.columns.length]).toBeNull();
    expect(change.layout.columns.length).toBe(all.length + 1);
    expect(change.retire).toEqual([]);
  });

  it('takes back columns a cut-short run already added instead of adding them again', () => {
    const first = planLayoutChange(
      essentials,
      all,
      () => essentials.columns.length + 1,
      () => essentials.columns,
    )!;
    const headerRow = first.layout.columns.map((h) => h ?? '');
    const again = planLayoutChange(
      essentials,
      all,
      () => headerRow.length + 1,
      () => headerRow,
    )!;
    expect(again.layout).toEqual(first.layout);
  });

  it('retires a column no longer chosen, in place, and revives it when chosen again', () => {
    const layout = newLayout(ORDERS, { preset: 'all' });
    const narrowed = planLayoutChange(
      layout,
      essentials.columns as string[],
      () => 999,
      () => [],
    )!;
    expect(narrowed.add).toEqual([]);
    expect(narrowed.layout.columns).toEqual(layout.columns);
    expect(narrowed.retire).toContain('utm_campaign');
    const schema = layoutSchema(ORDERS, narrowed.layout);
    expect(schema.columns[layout.columns.indexOf('utm_campaign')].skip).toBe('retired');
    const widened = planLayoutChange(
      narrowed.layout,
      all,
      () => 999,
      () => [],
    )!;
    expect(widened.revive).toEqual(narrowed.retire);
    expect(widened.layout.retired).toEqual([]);
  });

  it('clears a retired column once, its values included when an older version kept them, and forgets the day when it is chosen again', () => {
    const layout = newLayout(ORDERS, { preset: 'all' });
    const narrowed = planLayoutChange(
      layout,
      essentials.columns as string[],
      () => 999,
      () => [],
    )!;
    expect(narrowed.clear).toEqual(narrowed.retire);
    const cleared = withClearedOn(narrowed.layout, narrowed.clear, '2026-11-26');
    expect(
      planLayoutChange(
        cleared,
        essentials.columns as string[],
        () => 999,
        () => [],
      ),
    ).toBeNull();
    expect(layoutSchema(ORDERS, cleared).columns[layout.columns.indexOf('utm_campaign')].note).toMatch(
      /^No longer synced since 2026-11-26; values cleared/,
    );
    // Retired by an older version (no day): its values are still there, so the next sync clears them.
    const older = planLayoutChange(
      { columns: cleared.columns, retired: cleared.retired },
      essentials.columns as string[],
      () => 999,
      () => [],
    )!;
    expect(older.retire).toEqual([]);
    expect(older.clear).toEqual(cleared.retired);
    const widened = planLayoutChange(
      cleared,
      all,
      () => 999,
      () => [],
    )!;
    expect(widened.clear).toEqual([]);
    expect(widened.layout.cleared).toEqual({});
  });
});

describe("rows in catalog order, written at the sheet's columns", () => {
  it('places a whole row, cuts what the sheet does not sync, and reads it back', () => {
    const layout = { columns: ['id', 'status', null, 'net_profit', 'utm_source'], retired: ['utm_source'] };
    const small = {
      ...ORDERS,
      columns: ORDERS.columns.filter((c) => ['id', 'status', 'net_profit', 'utm_source'].indexOf(c.header) >= 0),
    };
    const map = columnMap(small, layout)!;
    const cells = small.columns.map((c) => `v:${c.header}`);
    const placed = toSheetWrites(map, layout.columns.length, [{ row: 7, column: 1, cells }]);
    expect(placed).toEqual([{ row: 7, column: 1, cells: ['v:id', 'v:status', '', 'v:net_profit', ''] }]);
    const schema = layoutSchema(small, layout);
    expect(
      withoutSkipped(
        schema.columns.map((c) => c.skip !== undefined),
        placed,
      ),
    ).toEqual([
      { row: 7, column: 1, cells: ['v:id', 'v:status'] },
      { row: 7, column: 4, cells: ['v:net_profit'] },
    ]);
    expect(toCatalogRow(map, ['a', 'b', 'mine', 'c', 'old'])).toEqual(['a', 'b', 'c', '']);
  });

  it('splits a partial write into runs of adjacent sheet columns', () => {
    const map = [1, 2, 9, 10, 0, 3];
    expect(toSheetWrites(map, 10, writesOfColumns(4, ['a', 'b', 'c', 'd', 'e', 'f'], [1, 2, 3, 5], 'EUR'))).toEqual([
      { row: 4, column: 2, cells: ['b'], currency: 'EUR' },
      { row: 4, column: 9, cells: ['c', 'd'], currency: 'EUR' },
      { row: 4, column: 3, cells: ['f'], currency: 'EUR' },
    ]);
  });
});
