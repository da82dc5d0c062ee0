/** What the sidebar says about a closed month after a sync. Pure, shared by server and sidebar. */

export interface ClosedMonthView {
  /** YYYY-MM */
  month: string;
  netProfitChange: number;
  changedDays: number;
  changedValues: number;
  basisChanged: boolean;
  currency: string | null;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', CAD: 'CA$', AUD: 'A$' };

export function monthName(month: string): string {
  return MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? month;
}

/** −$312.40 / +$12.00 / −312.40 CHF: a signed amount with a true minus sign and the currency. */
export function signedMoney(amount: number, currency: string | null): string {
  const sign = amount < 0 ? '−' : '+';
  const abs = Math.abs(amount)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (currency && SYMBOLS[currency]) return `${sign}${SYMBOLS[currency]}${abs}`;
  return currency ? `${sign}${abs} ${currency}` : `${sign}${abs}`;
}

/** "October changed by −$312.40 net profit since you closed it" (the year is added when two closed months share a name). */
export function closedMonthText(view: ClosedMonthView, all: readonly ClosedMonthView[] = [view]): string {
  const sameName = all.filter((v) => v.month.slice(5) === view.month.slice(5)).length > 1;
  const name = sameName ? `${monthName(view.month)} ${view.month.slice(0, 4)}` : monthName(view.month);
  const basis = view.basisChanged ? ' (the basis of the figures changed since: compare with care)' : '';
  if (view.changedValues === 0) return `${name}: no change since you closed it${basis}`;
  if (view.netProfitChange === 0)
    return `${name} changed since you closed it (${view.changedValues} values on ${view.changedDays} days; net profit unchanged)${basis}`;
  return `${name} changed by ${signedMoney(view.netProfitChange, view.currency)} net profit since you closed it${basis}`;
}
