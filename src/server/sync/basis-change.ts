/**
 * The merchant's tax setting changes net_profit on every order and day while no updated_at moves
 * (spec 2.3 rule 6, 2.8 basis), so an incremental sync would keep the old figures for ever. Each
 * run reads the basis from the summary (one request, cached for its Cache-Control 60 s) and keeps
 * the last one seen; a change refreshes every order and every Daily P&L day in the window and says
 * so until the sheets hold one basis again.
 */
import { recordBasis } from '../finance/basis';
import { instantToLocalDate } from '../platform/calendar';
import { DAILY } from '../sheets/schema';
import { backfillSummaryFrom, startsBackfill } from './backfill-check';
import type { JobContext } from './job-context';
import { basisOf, basisWords, type SheetsBasis } from '../state/sheets-basis';

function sameBasis(a: SheetsBasis['basis'], b: SheetsBasis['basis']): boolean {
  return (
    a !== null &&
    b !== null &&
    a.taxTreatedAsCost === b.taxTreatedAsCost &&
    a.refundRecognition === b.refundRecognition &&
    a.adSpend === b.adSpend
  );
}

/** Before the jobs: a basis that changed restarts every order and day; returns what to tell the user. */
export function checkBasis(ctx: JobContext): string[] {
  const today = instantToLocalDate(ctx.now(), ctx.storeTimeZone);
  // Any period gives the store's basis: a first backfill asks for the one its estimate reads next.
  const from = startsBackfill(ctx, null) ? backfillSummaryFrom(ctx) : today;
  const summaryBasis = ctx.api.summary(from, today).basis;
  // The finance sheets read the same record (recordBasis): no second request for them.
  recordBasis(ctx.state, summaryBasis, ctx.now());
  const now = basisOf(summaryBasis);
  const held = ctx.state.get('sheetsBasis');
  if (now === null) return [];
  if (held.basis === null) {
    ctx.state.update('sheetsBasis', { basis: now });
    return [];
  }
  if (sameBasis(held.basis, now)) return held.refreshingSince !== null ? [refreshingNote(held.previous, now)] : [];
  ctx.state.update('orders', { watermark: null, caughtUp: false });
  const daily = ctx.state.get('daily');
  if (daily.historyDone) {
    const first = earliestDay(ctx);
    if (first !== null) ctx.state.update('daily', { dirtyFrom: first });
  } else if (daily.backfillFrom !== null) {
    ctx.state.update('daily', { resumeFrom: daily.backfillFrom });
  }
  ctx.state.update('sheetsBasis', { basis: now, previous: held.basis, refreshingSince: ctx.now() });
  return [
    `The store's P&L basis changed (${basisWords(held.basis)} → ${basisWords(now)}): net profit changes on every order without a new updated_at, ` +
      'so every order and every Daily P&L day in the window is fetched again.',
    refreshingNote(held.basis, now),
  ];
}

function refreshingNote(previous: SheetsBasis['basis'], now: SheetsBasis['basis']): string {
  return `Until that refresh completes, rows of Orders and Daily P&L may still hold figures on the old basis (${basisWords(previous)}); do not compare them with new ones (${basisWords(now)}).`;
}

/** After a run that brought every job up to date: the sheets hold one basis again. */
export function finishBasisRefresh(ctx: JobContext): string | null {
  const held = ctx.state.get('sheetsBasis');
  if (held.refreshingSince === null) return null;
  ctx.state.update('sheetsBasis', { refreshingSince: null, previous: null });
  return `Every order and day now holds figures on one basis (${basisWords(held.basis)}).`;
}

function earliestDay(ctx: JobContext): string | null {
  let first: string | null = null;
  for (const [day] of ctx.workbook.index(DAILY).entries()) if (first === null || day < first) first = day;
  return first;
}
