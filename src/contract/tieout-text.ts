/** What the sidebar says about the latest tie-out (the tie-out sheet). Pure, shared by server and sidebar. */

/** The latest tie-out, as the last sync or "Check again" left it (sync state `tieout`, no request of its own). */
export interface TieoutView {
  /** ISO time of the check; the sidebar shows it in the spreadsheet's time zone. */
  checkedAt: string;
  /** Days compared. */
  days: number;
  /** The first days that do not tie out (YYYY-MM-DD, store time zone); the Checks sheet lists them all. */
  failedDays: string[];
  failedCount: number;
  /** The plan window's first day when it cut the range checked, else null. */
  cutFrom: string | null;
  /** The first day of the P&L sheets proved, and of the orders summed (older versions' state: absent). */
  provenFrom?: string | null;
  ordersFrom?: string | null;
  /** ISO time the last reconciliation pass that re-checked every order's figures completed, and the first placement day it saw (null: all). */
  recheckedAt?: string | null;
  recheckedFrom?: string | null;
  /** Orders that pass wrote again because their figures differed. */
  recheckedRepaired?: number;
  /** Closed months (YYYY-MM) whose close sheet no longer holds what the close saved. */
  closesChanged?: string[];
  /** The first days that hold orders in another currency, which the tie-out cannot compare (not ✗), and how many. */
  notCompared?: string[];
  notComparedCount?: number;
  /** Why the last tie-out due did not run ("Tie-out not run this time: …"): the days above are from an earlier one. */
  notRun?: string | null;
}

/** How a time is shown to the reader: in the spreadsheet's zone (the sidebar's formatTime, the server's localTimeText), never UTC text. */
export type LocalTime = (iso: string) => string;

/**
 * Which figures the tie-out proves, and from which day (the Checks sheet's last line, the sidebar's
 * Checks card). The figures left out and why are in the Checks sheet's note column header.
 */
export function tieoutScopeText(
  view: Pick<TieoutView, 'provenFrom' | 'ordersFrom' | 'recheckedAt' | 'recheckedFrom' | 'recheckedRepaired'>,
  time: LocalTime,
): string {
  if (!view.provenFrom) return '';
  const orders = view.ordersFrom
    ? ` Orders from ${view.ordersFrom}: gross_revenue, refunds, net_revenue, cogs, payment_fee, fulfillment_cost, ad_spend_allocated, and tax, ` +
      "contribution_profit, allocated_overhead, net_profit, shipping_revenue and discount where the Orders sheet syncs them, summed by day and month against the service's Daily P&L. " +
      orderByOrder(view, time) +
      textCells(view, time) +
      " An order's margin percentages are checked against its own row's figures." +
      (view.recheckedAt ? '' : " Line items, an order's cogs_coverage_pct, currency and cost status are not proven.")
    : '';
  return `Proves every Daily P&L figure and every Monthly P&L total against the service's daily figures from ${view.provenFrom} to today, to the cent.${orders}`;
}

/** What proves Orders and Line items order by order: nothing before a reconciliation pass re-checked every order's figures. */
function orderByOrder(
  view: Pick<TieoutView, 'recheckedAt' | 'recheckedFrom' | 'recheckedRepaired'>,
  time: LocalTime,
): string {
  if (!view.recheckedAt)
    return 'Orders figures are proven as day sums per figure, not order by order: two wrong orders that cancel out within a day are not seen.';
  const from = view.recheckedFrom ? `placed from ${view.recheckedFrom}` : 'of all history';
  return (
    `Order by order, every synced cell of Orders and Line items (line items' cogs and other figures, an order's cogs_coverage_pct, currency and cost_status included) ` +
    `of the orders ${from} was compared with the service by the reconciliation pass completed at ${time(view.recheckedAt)}, and rewritten where it differed ` +
    `(${count(view.recheckedRepaired ?? 0)} order${view.recheckedRepaired === 1 ? '' : 's'}, named in the Sync log); ` +
    'a change the service makes later without a new updated_at is found by the next pass.'
  );
}

/** Cells no sum holds (text and dates): only the reconciliation pass, order by order, compares them with the service. */
function textCells(view: Pick<TieoutView, 'recheckedAt'>, time: LocalTime): string {
  return (
    ' Text and date cells of Orders (financial_status, fulfillment_status, created_at and the like) are in no sum: this check does not prove them, and a hand edit of one keeps its day ✓; ' +
    (view.recheckedAt
      ? 'only the reconciliation pass proves them, order by order (the last one completed at ' +
        time(view.recheckedAt) +
        '; it runs weekly).'
      : 'only a reconciliation pass proves them, order by order, and none has completed yet (it runs weekly).')
  );
}

function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "Checks: all 183 days tie out" / "✗ 2026-10-03, 2026-10-07 do not tie out" / "✗ Tie-out not run this time: …". */
export function tieoutText(view: TieoutView): string {
  // An earlier result is never shown as the current one: what did not run, and why, instead.
  if (view.notRun) return `✗ ${view.notRun}`;
  return daysText(view) + notComparedText(view) + closesText(view.closesChanged ?? []);
}

/** Whether the Checks line is a ✗: days that do not tie out, or a tie-out that did not run. */
export function tieoutBad(view: TieoutView): boolean {
  return view.failedCount > 0 || Boolean(view.notRun);
}

/** " 2026-06-03 not compared: …" when days hold orders in another currency (Sync now cannot change that). */
function notComparedText(view: TieoutView): string {
  const days = view.notCompared ?? [];
  if (days.length === 0) return '';
  const total = view.notComparedCount ?? days.length;
  const named = days.join(', ') + (total > days.length ? ` and ${count(total - days.length)} more` : '');
  return ` ${named} not compared: orders in another currency than the store's are in the service's figures (see Checks).`;
}

function daysText(view: TieoutView): string {
  const window = view.cutFrom ? ` (from ${view.cutFrom}: your plan shows no older history)` : '';
  const mixed = view.notComparedCount ?? view.notCompared?.length ?? 0;
  if (view.failedCount === 0 && mixed > 0)
    return `Checks: ${count(view.days - mixed)} of ${count(view.days)} days tie out${window}.`;
  if (view.failedCount === 0)
    return `Checks: all ${count(view.days)} ${view.days === 1 ? 'day ties' : 'days tie'} out${window}.`;
  const more = view.failedCount - view.failedDays.length;
  const named = view.failedDays.join(', ') + (more > 0 ? ` and ${count(more)} more` : '');
  return `✗ ${named} ${view.failedCount === 1 ? 'does' : 'do'} not tie out${window}.`;
}

/** " ✗ Close 2026-08 no longer holds what the close saved (see Checks)." for each close whose sheet changed since. */
function closesText(months: readonly string[]): string {
  if (months.length === 0) return '';
  const sheets = months.map((m) => `Close ${m}`).join(', ');
  return ` ✗ ${sheets} no longer ${months.length === 1 ? 'holds' : 'hold'} what the close saved (see Checks).`;
}

/** What to do about ✗ days: Sync now fetches their orders and P&L days again, whole (the ✗-day refetch). */
export function tieoutAdvice(view: TieoutView): string | null {
  if (view.failedCount === 0) return null;
  return 'Sync now fetches the orders of those days again and their Daily P&L, and puts edited Orders and P&L cells back (the Checks sheet shows each figure).';
}
