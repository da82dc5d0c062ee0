/**
 * Conditional formatting the add-on sets on a managed sheet: what the figures mean made visible
 * without changing them. Orders: an order whose cost is unknown or covered only in part has its
 * cost and profit cells in amber (its profit is overstated by the missing costs). The rule reads
 * the API's own columns (cogs_source, cogs_coverage_pct), so rows written before cost_status
 * existed are highlighted too. Line items: a line whose cost is unknown (or may be: see
 * LineCostStatus) has its cogs and cost_status cells in the same amber; the line alone cannot say
 * it, so the rule reads the derived cost_status. Pure: Sheets API requests for the set-up's batchUpdate.
 */
import { columnLetter } from './a1';
import { UNKNOWN_COGS_SOURCE } from './cost-status';
import { columnIndex, LINE_ITEMS, ORDERS, type TableSchema } from './schema';

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

/** Light amber: Sheets' "light yellow 2"-like fill, readable under black text. */
export const UNKNOWN_COST_FILL = { red: 1, green: 0.949, blue: 0.8 };

/** The Orders cells an incomplete cost makes wrong: the cost itself, its coverage, and the profits built on it. */
export const UNKNOWN_COST_COLUMNS = [
  'cogs',
  'cogs_source',
  'cogs_coverage_pct',
  'contribution_profit',
  'contribution_margin_pct',
  'net_profit',
  'net_margin_pct',
  'cost_status',
] as const;

/** The custom formula, relative to row 2 (the first range's top row); coverage is a fraction (percent.ts). */
export function unknownCostFormula(schema: TableSchema = ORDERS): string {
  const source = columnLetter(columnIndex(schema, 'cogs_source') + 1);
  const coverage = columnLetter(columnIndex(schema, 'cogs_coverage_pct') + 1);
  return `=OR($${source}2="${UNKNOWN_COGS_SOURCE}",AND(ISNUMBER($${coverage}2),$${coverage}2<1))`;
}

/** The Line items cells an unknown cost makes wrong: the cost itself and its status. */
export const UNKNOWN_LINE_COST_COLUMNS = ['cogs', 'cost_status'] as const;

/** The Line items custom formula, relative to row 2: cost_status is unknown or possibly_unknown. */
export function unknownLineCostFormula(schema: TableSchema = LINE_ITEMS): string {
  const status = columnLetter(columnIndex(schema, 'cost_status') + 1);
  return `=OR($${status}2="unknown",$${status}2="possibly_unknown")`;
}

function amberRule(
  sheetId: number,
  schema: TableSchema,
  wanted: readonly string[],
  formula: string,
  only?: ReadonlySet<string>,
): SheetsRequest[] {
  // The sheet's synced columns only (a chosen-columns layout may lack some: the sheet layout).
  const headers = wanted.filter((h) => schema.columns.some((c) => c.header === h && !c.skip) && (!only || only.has(h)));
  if (headers.length === 0) return [];
  const ranges = headers.map((header) => {
    const column = columnIndex(schema, header);
    return { sheetId, startRowIndex: 1, startColumnIndex: column, endColumnIndex: column + 1 };
  });
  return [
    {
      addConditionalFormatRule: {
        index: 0,
        rule: {
          ranges,
          booleanRule: {
            condition: { type: 'CUSTOM_FORMULA', values: [{ userEnteredValue: formula }] },
            format: { backgroundColor: UNKNOWN_COST_FILL },
          },
        },
      },
    },
  ];
}

/**
 * The conditional format rules of a sheet's schema (none for most sheets); `only`: for columns
 * added to a sheet later, a rule over those columns alone (the others have theirs).
 */
export function highlightRequests(sheetId: number, schema: TableSchema, only?: ReadonlySet<string>): SheetsRequest[] {
  if (schema.sheetName === ORDERS.sheetName)
    return amberRule(sheetId, schema, UNKNOWN_COST_COLUMNS, unknownCostFormula(schema), only);
  if (schema.sheetName === LINE_ITEMS.sheetName)
    return amberRule(sheetId, schema, UNKNOWN_LINE_COST_COLUMNS, unknownLineCostFormula(schema), only);
  return [];
}
