/** Custom functions: bodies for the PROFIT_* globals in main.ts. */
export { profitDaily, profitOrder, profitSummary } from './profit';
export type { Table, Cell } from './tables';
