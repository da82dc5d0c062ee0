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

/** "November 2026": a closed month is always named with its year (a store's history spans several Novembers). */
export function monthWithYear(month: string): string {
  const name = MONTH_NAMES[Number(month.slice(5, 7)) - 1];
  return name === undefined ? month : `${name} ${month.slice(0, 4)}`;
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

/** "October 2026 changed by −$312.40 net profit since you closed it". */
export function closedMonthText(view: ClosedMonthView): string {
  const name = monthWithYear(view.month);
  const basis = view.basisChanged ? ' (the basis of the figures changed since: compare with care)' : '';
  if (view.changedValues === 0) return `${name}: no change since you closed it${basis}`;
  if (view.netProfitChange === 0)
    return `${name} changed since you closed it (${view.changedValues} values on ${view.changedDays} days; net profit unchanged)${basis}`;
  return `${name} changed by ${signedMoney(view.netProfitChange, view.currency)} net profit since you closed it${basis}`;
}
