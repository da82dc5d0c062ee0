/** What the sidebar says about orders with incomplete costs (costGapsOf). Pure, shared by server and sidebar. */
import { signedMoney } from './closed-month-text';

/** Orders with incomplete costs in one currency other than the store's, and their net revenue in it. */
export interface CurrencyGap {
  currency: string;
  orders: number;
  /** null: an Orders net_revenue cell of one of them holds no number (unknown, never summed as 0). */
  netRevenue: number | null;
}

export interface CostGapsView {
  /** Active orders whose cost is incomplete or unknown, in every currency. */
  orders: number;
  /** Active orders counted in all. */
  ordersCounted: number;
  /** The net revenue of those in the store's currency (the API's figures summed); null: not known (a cell holds no number). */
  netRevenue: number | null;
  currency: string | null;
  /** Those in other currencies, per currency: never added to netRevenue (absent in a state from before). */
  otherCurrencies?: CurrencyGap[];
}

function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** $1,234.50 / 1,234.50 CHF */
export function money(amount: number, currency: string | null): string {
  const signed = signedMoney(amount, currency);
  return signed.startsWith('+') ? signed.slice(1) : signed;
}

/** "1 order in EUR (€56.00), 2 orders in CHF (1,234.50 CHF)"; '' when there are none. */
export function otherCurrenciesText(others: readonly CurrencyGap[]): string {
  return others
    .map(
      (g) =>
        `${count(g.orders)} ${g.orders === 1 ? 'order' : 'orders'} in ${g.currency} (${g.netRevenue === null ? 'net revenue unknown' : money(g.netRevenue, g.currency)})`,
    )
    .join(', ');
}

export function costGapsText(view: CostGapsView): string {
  if (view.ordersCounted === 0) return 'No orders synced yet.';
  if (view.orders === 0) return `Costs are known for all ${count(view.ordersCounted)} active orders.`;
  const others = otherCurrenciesText(view.otherCurrencies ?? []);
  const own = view.netRevenue === null ? 'net revenue unknown' : `${money(view.netRevenue, view.currency)} net revenue`;
  const revenue = others === '' ? own : `${own}, and ${others}`;
  return (
    `Incomplete costs on ${count(view.orders)} of ${count(view.ordersCounted)} active orders (${revenue}): ` +
    'their profit is overstated by the missing costs. See cost_status in Orders (highlighted in amber).'
  );
}
