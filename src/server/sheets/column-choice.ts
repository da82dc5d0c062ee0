/**
 * Which Orders and Line items columns a spreadsheet syncs: a preset ("Essentials", "All") or the
 * user's own list. The keys, the derived columns and every column the add-on itself reads back
 * (the tie-out's figures, the cost check, PROFIT_ORDER's order number, the change marker) always
 * stay, whatever the choice. Pure.
 */
import { TIEOUT_FIGURES, LINE_ITEMS, ORDERS, type TableSchema } from './schema';

export type ColumnPreset = 'essentials' | 'all' | 'custom';
export type ChoosableTable = 'Orders' | 'Line items';
export const CHOOSABLE_TABLES: readonly TableSchema[] = [ORDERS, LINE_ITEMS];

export interface TableChoice {
  preset: ColumnPreset;
  /** The custom list (headers); ignored for the presets. */
  columns?: string[];
}

export type ColumnChoice = Partial<Record<ChoosableTable, TableChoice>>;

/** Read back by the add-on: the tie-out's sums, the cost checks and highlight, PROFIT_ORDER, the change marker. */
const ORDERS_READ_BACK = [
  'order_number',
  'updated_at',
  'currency',
  'cogs_source',
  'cogs_coverage_pct',
  ...TIEOUT_FIGURES.map((f) => f.orders),
];

const ESSENTIALS: Record<ChoosableTable, readonly string[]> = {
  // Tax and shipping revenue: finance reconciles revenue to the payouts and the tax return with them.
  // Every kept figure can be read and re-added from the row: tax with tax_included_in_price (is it
  // inside gross_revenue?), net_profit = contribution_profit - allocated_overhead (spec 2.3).
  // The margins are left to All: their bases (net_revenue, contribution_profit, net_profit) are
  // kept, so each is one division away. discount is left to All too (spec 2.3: reference only,
  // already inside gross_revenue), and created_at (placed_date is the day that ties to the P&L),
  // so Essentials keeps fitting twice the orders of All in the workbook's cells.
  // canceled_at is left to All: the status column already says cancelled.
  Orders: [
    'financial_status',
    'shipping_revenue',
    'tax',
    'tax_included_in_price',
    'contribution_profit',
    'allocated_overhead',
    'net_profit',
  ],
  // A line's order_number (always kept) costs a column: quantity goes to All, so Essentials keeps
  // fitting twice the orders of All. A finance reader reads a line by what was sold (sku) and its
  // money (total, cogs), which tie to the order's figures; units are an operations count.
  'Line items': ['sku', 'total', 'cogs'],
};

export function isChoosable(schema: TableSchema): boolean {
  return schema.sheetName === 'Orders' || schema.sheetName === 'Line items';
}

/** Columns no choice removes: the derived ones (no API path), the keys, and what the add-on reads back. */
export function keptColumns(catalog: TableSchema): Set<string> {
  const kept = new Set<string>();
  catalog.columns.forEach((c, i) => {
    if (!c.path || i < catalog.indexColumns) kept.add(c.header);
  });
  if (catalog.sheetName === 'Orders') for (const h of ORDERS_READ_BACK) kept.add(h);
  return kept;
}

/** The headers a choice syncs, in the catalog's order. */
export function chosenHeaders(catalog: TableSchema, choice: TableChoice | undefined): string[] {
  const kept = keptColumns(catalog);
  const preset = choice?.preset ?? 'all';
  if (preset === 'all') return catalog.columns.map((c) => c.header);
  const wanted = new Set(
    preset === 'essentials' ? ESSENTIALS[catalog.sheetName as ChoosableTable] : (choice?.columns ?? []),
  );
  return catalog.columns.map((c) => c.header).filter((h) => kept.has(h) || wanted.has(h));
}

/**
 * A choice as the sidebar sent it, checked: a known preset, and for a custom list only the table's
 * own headers (anything else is refused with the name, never stored).
 */
export function parseTableChoice(catalog: TableSchema, raw: unknown): TableChoice {
  const value = (raw ?? {}) as { preset?: unknown; columns?: unknown };
  const preset = value.preset;
  if (preset !== 'essentials' && preset !== 'all' && preset !== 'custom')
    throw new Error(`Choose "essentials", "all" or "custom" for ${catalog.sheetName}.`);
  if (preset !== 'custom') return { preset };
  if (!Array.isArray(value.columns))
    throw new Error(`A custom choice for ${catalog.sheetName} needs its list of columns.`);
  const known = new Set(catalog.columns.map((c) => c.header));
  const unknown = value.columns.find((h) => typeof h !== 'string' || !known.has(h));
  if (unknown !== undefined) throw new Error(`${catalog.sheetName} has no column "${String(unknown).slice(0, 60)}".`);
  return { preset, columns: chosenHeaders(catalog, { preset, columns: value.columns as string[] }) };
}
