/** One tie-out row: a day or month of the orders' figures beside the P&L's, ✓ or what differs. */
import { LISTED_A_DAY } from './order-days';
import type { PnlFigures } from './period-sums';
import { FIGURES, SLOT, toCents, type TieoutFigure } from './tieout-figures';
import { counted } from '../../contract/counts-text';

export interface TieoutLine {
  orders: number | null;
  pnl: number | null;
  difference: number | null;
}

export interface TieoutRow {
  period: string;
  kind: 'day' | 'month';
  ok: boolean;
  /** False when orders in another currency are in the service's figures: the orders side cannot prove them (not a ✗). */
  comparable?: boolean;
  orders: number;
  figures: Record<TieoutFigure, TieoutLine>;
  /** The Daily or Monthly P&L sheet's row beside the service (the P&L sheets check): '✓', what differs, or '' when not checked. */
  pnlSheet: string;
  note: string;
}

/** A period checked on its P&L sheet only: listed when it differs (orders' figures empty: none are synced there). */
export function sheetOnlyRow(
  period: string,
  kind: 'day' | 'month',
  words: string | undefined,
  basisNote: string,
): TieoutRow[] {
  if (words === undefined || words === '✓') return [];
  const figures = Object.fromEntries(FIGURES.map((f) => [f, { orders: null, pnl: null, difference: null }])) as Record<
    TieoutFigure,
    TieoutLine
  >;
  const notes = [
    basisNote,
    `The ${kind === 'day' ? 'Daily' : 'Monthly'} P&L sheet differs from the service: ${words}.`,
  ].filter((n) => n !== '');
  return [{ period, kind, ok: false, orders: 0, figures, pnlSheet: words, note: notes.join(' ') }];
}

/** Orders whose margin percentages disagree with their figures: those listed, and how many more. */
export interface RatioList {
  listed: readonly string[];
  unlisted: number;
}

/** Listed in a note: the same few whether the Orders side was read whole or taken from the kept day sums. */
const NOTED_RATIOS = LISTED_A_DAY;

function ratiosText({ listed, unlisted }: RatioList): string {
  const more = unlisted + Math.max(0, listed.length - NOTED_RATIOS);
  const shown = listed.slice(0, NOTED_RATIOS).join(', ');
  return more === 0 ? shown : `${shown} and ${more} more`;
}

export function compare(
  period: string,
  kind: 'day' | 'month',
  count: number,
  orders: PnlFigures,
  pnl: PnlFigures,
  otherCurrency: number,
  basisNote: string,
  skipped: readonly string[],
  pnlSheet: string,
  compared: ReadonlySet<TieoutFigure>,
  wrongRatios: RatioList,
): TieoutRow {
  const figures = {} as Record<TieoutFigure, TieoutLine>;
  const off: string[] = [];
  for (const f of FIGURES) {
    const o = compared.has(f) ? orders[SLOT[f]] : null;
    const p = pnl[SLOT[f]];
    if (!compared.has(f)) {
      figures[f] = { orders: null, pnl: p, difference: null };
      continue;
    }
    const cents = o === null || p === null ? null : toCents(o) - toCents(p);
    figures[f] = { orders: o, pnl: p, difference: cents === null ? null : cents / 100 };
    if (cents === null) off.push(`${f} unknown`);
    else if (cents !== 0) off.push(f);
  }
  const notes: string[] = [];
  if (basisNote) notes.push(basisNote);
  const mixed = otherCurrency > 0;
  if (off.length > 0 && !mixed) notes.push(`Differs: ${off.join(', ')}.`);
  if (mixed) notes.push(mixedCurrencyNote(otherCurrency, kind));
  const sheetOk = pnlSheet === '' || pnlSheet === '✓';
  if (!sheetOk)
    notes.push(`The ${kind === 'day' ? 'Daily' : 'Monthly'} P&L sheet differs from the service: ${pnlSheet}.`);
  const wrongCount = wrongRatios.listed.length + wrongRatios.unlisted;
  if (wrongCount > 0)
    notes.push(`Margin percentages that disagree with their own order's figures: ${ratiosText(wrongRatios)}.`);
  if (skipped.length > 0)
    notes.push(
      `Not synced: ${skipped.join(', ')} (the service sent values that cannot be written to the sheet; see the Sync log).`,
    );
  return {
    period,
    kind,
    ok: (off.length === 0 || mixed) && basisNote === '' && skipped.length === 0 && wrongCount === 0 && sheetOk,
    comparable: !mixed,
    orders: count,
    figures,
    pnlSheet,
    note: notes.join(' '),
  };
}

/**
 * Spec 2.3: an order's amounts are in its own currency; the service's daily figures are in the
 * store's (2.8) and say nothing of how another currency enters them. Sync now cannot change that,
 * so the period is said as not compared, never ✗.
 */
function mixedCurrencyNote(orders: number, kind: 'day' | 'month'): string {
  return (
    `Not compared: ${counted(orders, 'order', 'orders')} in another currency than the store's (see Orders: currency) ${orders === 1 ? 'is' : 'are'} in the service's figures for this ${kind}, ` +
    `which the Orders sheet cannot prove (its sums keep currencies apart, the service's do not); a difference in its other orders cannot be told apart either. ` +
    `The Daily P&L shows the service's figures as they are.`
  );
}
