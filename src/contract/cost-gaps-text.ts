/** What the sidebar says about orders with incomplete costs (finance/cost-gaps.ts). Pure, shared by server and sidebar. */
import { signedMoney } from './closed-month-text';

export interface CostGapsView {
  /** Active orders whose cost is incomplete or unknown. */
  orders: number;
  /** Active orders counted in all. */
  ordersCounted: number;
  /** Their net revenue (the API's figures summed). */
  netRevenue: number;
  currency: string | null;
}

function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** $1,234.50 / 1,234.50 CHF */
export function money(amount: number, currency: string | null): string {
  const signed = signedMoney(amount, currency);
  return signed.startsWith('+') ? signed.slice(1) : signed;
}

export function costGapsText(view: CostGapsView): string {
  if (view.ordersCounted === 0) return 'No orders synced yet.';
  if (view.orders === 0) return `Costs are known for all ${count(view.ordersCounted)} active orders.`;
  return (
    `Incomplete costs on ${count(view.orders)} of ${count(view.ordersCounted)} active orders (${money(view.netRevenue, view.currency)} net revenue): ` +
    'their profit is overstated by the missing costs. See cost_status in Orders (highlighted in amber).'
  );
}
