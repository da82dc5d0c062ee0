/**
 * The tie-out's one query: the orders table summed by placed_day (the store day the Daily P&L
 * counts an order on) and by currency, with the Sheets tie-out's rules (finance/order-days.ts,
 * cost-gaps.ts, order-ratios.ts) written in GoogleSQL: active orders only, each amount taken to
 * whole cents before it is summed, an unreadable (NULL) amount counted apart so its day's sum is
 * unknown, never 0; the incomplete-cost counts of cost_status's rule (cogs_source unknown, or
 * coverage below 100); and the orders whose margin percentages disagree with their own figures.
 * Grouped by currency too, so the caller tells the store's orders from the others the way the
 * Sheets tie-out does. Partitioned on placed_day: the range reads only its days' partitions.
 * Only this store's rows (store_id): another spreadsheet's store may sync into the same dataset.
 * The same query also names the keys held more than once (held-twice-sql.ts).
 */
import { TIEOUT_COMPARED } from '../sheets/schema';
import { heldTwiceSelects, NO_HELD_KEY } from './held-twice-sql';
import { tablePath, type TableNames } from './merge-sql';
import type { QueryParameter } from './query';
import { STORE_PARAMETER, storeParameter } from './store-scope';
import { ORDERS_TABLE, PLACED_DAY } from './table-schemas';

/** The result column of a figure's summed cents, and of its active orders with no amount. */
export const centsColumn = (figure: string): string => `${figure}_cents`;
export const unknownColumn = (figure: string): string => `${figure}_unknown`;

const ACTIVE = "status = 'active'";
/** cost-status.ts costStatusOf: unknown source, or a coverage (percentage points, as the API gives it) below 100. */
const COST_GAP = `IFNULL(LOWER(TRIM(cogs_source)) = 'unknown' OR cogs_coverage_pct < 100, FALSE)`;
/**
 * Whole cents as NUMERIC, never INT64: an amount above 92,233,720,368,547,758.07 would overflow
 * INT64 and fail the whole query ("Mathematical functions": an overflow is an error). NUMERIC holds
 * 29 integer digits and BIGNUMERIC 38 ("Data types", Decimal types): the amount is widened to
 * BIGNUMERIC before ×100 so the largest NUMERIC amount still has its cents, and a sum stays exact.
 */
const cents = (column: string): string => `ROUND(CAST(${column} AS BIGNUMERIC) * 100)`;

/**
 * order-ratios.ts inconsistentRatios, on the table's percentage points (hundredths of a point are
 * points × 100): consistent within half a hundredth of the exact ratio; 0 when net revenue is not
 * above 0. A NULL figure is not checked.
 */
function ratioOff(pct: string, amount: string): string {
  const revenue = cents('net_revenue');
  const hundredths = `ROUND(CAST(${pct} AS BIGNUMERIC) * 100)`;
  return (
    `IFNULL(IF(${revenue} <= 0, ${hundredths} != 0, ` +
    `2 * ABS(${hundredths} * ${revenue} - ${cents(amount)} * 10000) > ${revenue}), FALSE)`
  );
}

const RATIOS: ReadonlyArray<[string, string]> = [
  ['contribution_margin_pct', 'contribution_profit'],
  ['net_margin_pct', 'net_profit'],
];

/** "id (contribution_margin_pct, net_margin_pct)" for an order whose percentages disagree, else NULL. */
function ratioWords(): string {
  const [[cPct, cAmount], [nPct, nAmount]] = RATIOS;
  const c = ratioOff(cPct, cAmount);
  const n = ratioOff(nPct, nAmount);
  return (
    `CASE WHEN ${c} AND ${n} THEN CONCAT(id, ' (${cPct}, ${nPct})') ` +
    `WHEN ${c} THEN CONCAT(id, ' (${cPct})') WHEN ${n} THEN CONCAT(id, ' (${nPct})') END`
  );
}

/** Separates the ids in `inconsistent` (an order id holds none: "ord_…"). */
export const RATIO_SEPARATOR = '|';

export interface TieoutQuery {
  sql: string;
  parameters: QueryParameter[];
}

/**
 * Every order placed up to `to` (YYYY-MM-DD, inclusive), from `from` when given (the orders window),
 * summed per day and currency; then, in the same query, every copy of a key held more than once
 * (held-twice-sql.ts), whatever its day: those rows carry a held order and no sums.
 */
export function tieoutQuery(names: TableNames, storeId: string, from: string | null, to: string): TieoutQuery {
  const figures: Array<[string, string]> = TIEOUT_COMPARED.flatMap((f): Array<[string, string]> => [
    [`SUM(IF(${ACTIVE}, ${cents(f.orders)}, 0))`, centsColumn(f.figure)],
    [`COUNTIF(${ACTIVE} AND ${f.orders} IS NULL)`, unknownColumn(f.figure)],
  ]);
  const sums: Array<[string, string]> = [
    ['currency', 'currency'],
    ['COUNT(*)', 'row_count'],
    [`COUNTIF(${ACTIVE})`, 'active'],
    ...figures,
    [`COUNTIF(${ACTIVE} AND ${COST_GAP})`, 'gap_orders'],
    [`SUM(IF(${ACTIVE} AND ${COST_GAP}, ${cents('net_revenue')}, 0))`, 'gap_cents'],
    [`COUNTIF(${ACTIVE} AND ${COST_GAP} AND net_revenue IS NULL)`, 'gap_unknown'],
    [`STRING_AGG(IF(${ACTIVE}, ${ratioWords()}, NULL), '${RATIO_SEPARATOR}')`, 'inconsistent'],
  ];
  const sql = [
    `SELECT ${PLACED_DAY} AS day,`,
    ...sums.map(([expr, name]) => `  ${expr} AS ${name},`),
    `  ${NO_HELD_KEY.join(', ')}`,
    `FROM ${tablePath(names, ORDERS_TABLE.tableId)}`,
    from === null ? `WHERE ${PLACED_DAY} <= @to_day` : `WHERE ${PLACED_DAY} BETWEEN @from_day AND @to_day`,
    `  AND store_id = @${STORE_PARAMETER}`,
    `GROUP BY ${PLACED_DAY}, currency`,
    ...heldTwiceSelects(
      names,
      sums.map(([, name]) => name),
    ).map((part) => `UNION ALL\n${part}`),
  ].join('\n');
  return {
    sql,
    parameters: [
      ...(from === null ? [] : [{ name: 'from_day', type: 'DATE' as const, value: from }]),
      { name: 'to_day', type: 'DATE', value: to },
      storeParameter(storeId),
    ],
  };
}
