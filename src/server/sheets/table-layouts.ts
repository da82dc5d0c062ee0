/**
 * The column layouts of the choosable tables (Orders, Line items): a located sheet's as stored,
 * a new sheet's from the chosen columns. Other tables have none: their sheet is the catalog.
 */
import { isChoosable, type ChoosableTable, type ColumnChoice } from './column-choice';
import { followsColumnTags, taggedLayout } from './column-tags';
import { catalogLayout, layoutSchema, newLayout, type TableLayout } from './sheet-layout';
import type { SheetInfo } from './sheet-snapshot';
import type { TableSchema } from './schema';

/**
 * The columns a spreadsheet syncs: what the user chose, each sheet's layout as set up, and where
 * a changed layout is saved (with the columns its existing rows lack).
 */
export interface ColumnSettings {
  choice: ColumnChoice;
  layouts: Partial<Record<ChoosableTable, TableLayout>>;
  /** `fill`: headers existing rows lack; `created`: the sheet was set up afresh (nothing to fill). */
  saveLayout(table: ChoosableTable, layout: TableLayout, fill: readonly string[], created: boolean): void;
}

export class TableLayouts {
  private columns: ColumnSettings | null = null;

  /** The columns this spreadsheet syncs: needed before Orders or Line items is opened. */
  use(settings: ColumnSettings): void {
    this.columns = settings;
  }

  /** Whether the chosen columns are loaded (a run that never opens Orders or Line items has none). */
  loaded(): boolean {
    return this.columns !== null;
  }

  settings(): ColumnSettings {
    if (!this.columns)
      throw new Error(
        'The chosen columns were not loaded before opening Orders or Line items (ManagedWorkbook.useColumns).',
      );
    return this.columns;
  }

  /**
   * The layout of an existing sheet (`located`) or of one set up now: Orders and Line items follow
   * the chosen columns; a sheet an older version set up, with no stored layout, holds every catalog
   * column (null layout: the catalog itself). Other tables have none.
   */
  layoutFor(table: TableSchema, located: boolean): { schema: TableSchema; layout: TableLayout | null } {
    if (!isChoosable(table)) return { schema: table, layout: null };
    const settings = this.settings();
    const name = table.sheetName as ChoosableTable;
    if (located) {
      const stored = settings.layouts[name];
      return stored ? { schema: layoutSchema(table, stored), layout: stored } : { schema: table, layout: null };
    }
    const layout = newLayout(table, settings.choice[name]);
    return { schema: layoutSchema(table, layout), layout };
  }

  /**
   * An existing sheet's layout where its column tags put its columns (column-tags.ts): a moved or
   * renamed column of Orders or Line items is found, a column the user inserted is theirs. `lost`: synced columns deleted;
   * `tagged`: false for a sheet set up before the tags (its headers are checked, then it is tagged).
   */
  placedFor(
    table: TableSchema,
    info: SheetInfo,
  ): { schema: TableSchema; layout: TableLayout | null; lost: string[]; tagged: boolean } {
    const stored = this.layoutFor(table, true);
    const tags = info.columnTags ?? [];
    if (!followsColumnTags(table) || tags.length === 0) return { ...stored, lost: [], tagged: false };
    // Products, Variants and the P&L sheets keep the catalog's places: a renamed heading is found by
    // its tag (taggedHeaderRow), a deleted column is refused like one of Orders.
    if (!isChoosable(table)) return { ...stored, lost: taggedLayout(catalogLayout(table), tags).lost, tagged: true };
    const { layout, lost } = taggedLayout(stored.layout ?? catalogLayout(table), tags);
    // A sheet missing a synced column is refused (checkColumnTags): read meanwhile as stored, never written.
    if (lost.length > 0) return { ...stored, lost, tagged: true };
    return { schema: layoutSchema(table, layout), layout, lost, tagged: true };
  }

  /**
   * A sheet about to be set up: for Orders and Line items, the chosen columns, saved as its layout
   * BEFORE the set-up writes its header (a set-up cut short leaves an empty sheet, set up again).
   */
  layoutForNewSheet(table: TableSchema): TableLayout | null {
    const { layout } = this.layoutFor(table, false);
    if (layout) this.settings().saveLayout(table.sheetName as ChoosableTable, layout, [], true);
    return layout;
  }
}
