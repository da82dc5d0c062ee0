/**
 * Before the first orders backfill: will it fit in the spreadsheet's 10 M cells? The API gives no
 * order count, so the count is estimated from two things it does give: the period's gross revenue
 * (profitability summary, cancelled orders excluded) and the mean gross revenue of the orders on
 * the first page (a sample of up to 250). Cells per order (its row plus its line items' rows) come
 * from the same page. Pure: the job fetches, this decides.
 */
import type { Order } from '../api/types';
import type { BackfillEstimate } from '../state/sync-state';
import { addDays, daysBetween, laterDay } from '../platform/calendar';

/** Fewer priced orders than this on the first page give no sound mean. */
export const MIN_SAMPLE = 20;
/** A suggested window aims at this share of the free cells: the estimate is a sample's. */
const SUGGESTION_HEADROOM = 0.8;

export interface EstimateInput {
  firstPage: readonly Order[];
  /** Σ gross_revenue of the orders placed from `windowFrom` (or the first order) to today (profitability summary). */
  periodGrossRevenue: number;
  /** First day the estimate covers: the created_after window, else the plan's first day, else null (full history). */
  windowFrom: string | null;
  createdAfter: string | null;
  today: string;
  /** Earliest placement day on the first page (store zone): the store's history starts near it. */
  earliestPlaced: string | null;
  usedCells: number;
  cellLimit: number;
  orderColumns: number;
  lineItemColumns: number;
}

function grossOf(order: Order): number | null {
  const economics = (order as { economics?: { gross_revenue?: unknown } | null }).economics;
  const gross = economics ? economics.gross_revenue : null;
  return typeof gross === 'number' && Number.isFinite(gross) ? gross : null;
}

/** The estimate, or null when the first page gives no sound basis for one (then only the per-page check guards). */
export function estimateBackfill(input: EstimateInput): BackfillEstimate | null {
  const page = input.firstPage;
  if (page.length === 0 || !(input.periodGrossRevenue > 0)) return null;
  let cancelled = 0;
  let priced = 0;
  let grossSum = 0;
  let lineItems = 0;
  for (const order of page) {
    lineItems += Array.isArray(order.line_items) ? order.line_items.length : 0;
    if (order.canceled_at) {
      cancelled++;
      continue;
    }
    const gross = grossOf(order);
    if (gross !== null && gross > 0) {
      priced++;
      grossSum += gross;
    }
  }
  if (priced < MIN_SAMPLE) return null;
  const activeOrders = input.periodGrossRevenue / (grossSum / priced);
  // status=all lists cancelled orders too; the summary does not count them.
  const activeShare = (page.length - cancelled) / page.length;
  const orders = Math.round(activeOrders / activeShare);
  const cellsPerOrder = input.orderColumns + (lineItems / page.length) * input.lineItemColumns;
  const neededCells = Math.ceil(orders * cellsPerOrder);
  const freeCells = Math.max(0, input.cellLimit - input.usedCells);
  const fits = neededCells <= freeCells;
  const rateFrom = laterDay(input.windowFrom, input.earliestPlaced) ?? input.today;
  return {
    createdAfter: input.createdAfter,
    rateFrom,
    today: input.today,
    orders,
    cellsPerOrder: Math.round(cellsPerOrder * 10) / 10,
    neededCells,
    freeCells,
    fits,
    suggestedFrom: fits ? null : suggestedWindow(orders, cellsPerOrder, freeCells, rateFrom, input.today),
  };
}

/** The created_after that keeps the same daily order rate within the free cells (never before rateFrom). */
function suggestedWindow(
  orders: number,
  cellsPerOrder: number,
  freeCells: number,
  rateFrom: string,
  today: string,
): string {
  const days = Math.max(1, daysBetween(rateFrom, today) + 1);
  const cellsPerDay = (orders / days) * cellsPerOrder;
  const fitDays = Math.floor((freeCells * SUGGESTION_HEADROOM) / cellsPerDay);
  if (fitDays < 1) return today;
  return addDays(today, -(Math.min(fitDays, days) - 1));
}
