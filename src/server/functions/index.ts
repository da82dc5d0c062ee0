/** Custom functions: bodies for the PROFIT_* and MA_* globals of the bundle, and their refresh. */
export { maFreshness, profitDaily, profitMonthly, profitMonthlyLaidOut, profitOrder, profitSummary } from './profit';
export { productCost } from './product-cost';
export { refreshFormulas } from './refresh';
export type { Table, Cell } from './tables';
