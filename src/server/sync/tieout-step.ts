/**
 * The tie-out step: it follows every run that brought Orders and Daily P&L up to date with new
 * changes (an idle run leaves the last one standing, at most a day old: it costs an Orders read),
 * and on demand; Sync now then fetches again the days it found ✗.
 */
import type { SyncCounts } from '../../contract/sidebar';
import { writeTieout } from '../finance/tieout-sheet';
import { SheetLayoutError, SheetOwnershipError } from '../sheets/managed-workbook';
import { isApiError } from '../api/api-error';
import type { OrderSumsTracker } from '../finance/order-sums-store';
import { destinationTieout } from './orders-destination';
import { refetchFailedDays } from './refetch-days';
import type { RunOptions } from './run-options';
import { runsJobs, type RunState, type RunStep } from './run-step';
import type { SyncStateStore } from '../state/sync-state';

/** Whether the run owes a tie-out: on demand, or after the orders and daily jobs changed what it checks. */
export function tieoutStepDue(run: RunState): boolean {
  if (!run.allCaughtUp) return false;
  const { ctx, atStart } = run;
  const tiesOut =
    run.options.tieOut === true ||
    (runsJobs(run, 'orders', 'daily') &&
      tieoutDue(
        ctx.state,
        atStart.watermark,
        ctx.tally.counts,
        run.basisRefreshed,
        skippedDaysKey(ctx.state) !== atStart.skippedDays,
        run.tracker.current() === null,
      ));
  return tiesOut;
}

export const TIEOUT_STEP: RunStep = {
  name: 'tie-out',
  due: tieoutStepDue,
  run(run) {
    const { ctx, options } = run;
    if (!ctx.budget.canStartStep()) {
      // Not caught up until it has run: Sync now takes another step, the next scheduled run owes it.
      oweTieout(ctx.state, ctx.now());
      run.messages.push(TIEOUT_OWED_NOTE);
      run.allCaughtUp = false;
      return;
    }
    run.messages.push(tieoutOrNote(run, tieoutReadsOrders(options, run.tracker, ctx.now())));
    // Sync now: days this tie-out found ✗ that it had not fetched again yet are fetched now, and the
    // next step (P&L re-read from them, tie-out) finishes the repair; days ✗ already known are not refetched twice.
    if (
      options.refetchFailedDays === true &&
      runsJobs(run, 'orders') &&
      ctx.state.get('tieout').failedDays.some((d) => run.atStart.failedDays.indexOf(d) < 0) &&
      ctx.budget.canStartStep()
    ) {
      const again = refetchFailedDays(ctx);
      if (again) run.messages.push(again);
      run.allCaughtUp = false;
    }
  },
};

/**
 * Orders or Daily P&L days changed in this run (new changes, gone marks, rewritten P&L days: a
 * silent correction moves only the P&L), Sync now fetched the ✗ days again (in this step or an
 * earlier one of the same Sync now), the basis is being refreshed, a Daily P&L day was skipped or
 * written after being skipped (its ✗ in Checks names it), a run cut short left the day sums unsaved, an earlier run
 * ran out of budget before its due tie-out (it owes it), or the last tie-out is a day old.
 */
function tieoutDue(
  state: SyncStateStore,
  watermarkAtStart: string | null,
  counts: SyncCounts,
  basisRefreshed: boolean,
  skippedDaysChanged: boolean,
  sumsUnsaved: boolean,
): boolean {
  const { checkedAt: last, refetchedAt } = state.get('tieout');
  return (
    (typeof refetchedAt === 'number' && last !== null && refetchedAt > last) ||
    state.get('orders').watermark !== watermarkAtStart ||
    counts.ordersGone > 0 ||
    counts.days > 0 ||
    basisRefreshed ||
    skippedDaysChanged ||
    // A run cut short after writing Orders left the day sums (and the formulas' counts) unsaved.
    sumsUnsaved ||
    typeof state.get('tieout').owedSince === 'number' ||
    state.get('sheetsBasis').refreshingSince !== null ||
    last === null ||
    Date.now() - last >= 86_400_000
  );
}

/** Said when the run brought the sheets up to date but its tie-out (and the day sums it saves) waits for the next run. */
const TIEOUT_OWED_NOTE = 'The tie-out (Checks) runs in the next run.';

/** The tie-out was due and the budget ran out first: the next run ties out whatever else it finds. */
function oweTieout(state: SyncStateStore, now: number): void {
  if (typeof state.get('tieout').owedSince !== 'number') state.update('tieout', { owedSince: now });
}

/** The Daily P&L days skipped so far, as one comparable text. */
export function skippedDaysKey(state: SyncStateStore): string {
  return state
    .get('skipped')
    .days.map((d) => d.id)
    .join(',');
}

/**
 * Whether the tie-out reads the whole Orders sheet: when the user asks (Checks → Run, Sync now),
 * when the day sums cannot be trusted, and at least once a day, so a hand edit of an Orders cell
 * shows within a day; otherwise the hourly run compares the day sums it kept as it wrote. Never
 * for an Orders sheet created in this run (a backfill's one-execution Sync now): it holds nothing
 * a user could have edited between runs.
 */
function tieoutReadsOrders(options: RunOptions, tracker: OrderSumsTracker | null, now: number): boolean {
  // An Orders sheet this run created holds only what the run wrote and summed: a read would tell nothing more.
  if (tracker?.provenByWrites()) return false;
  const fullAt = tracker ? tracker.fullAt() : null;
  return options.tieOut === true || options.refetchFailedDays === true || fullAt === null || now - fullAt >= 86_400_000;
}

/**
 * A tie-out that could not run is never an ok run: the state keeps why (the sidebar's Checks line
 * shows it as ✗, never an earlier ✓). A sheet's problem ends the run on it, with the way back; the
 * API's ends it as its pause or failure; one of its own (the time left, the service's answer) is
 * said in the Sync log, the run partial. The data the run wrote stands: its pages are checkpointed.
 */
function tieoutOrNote(run: RunState, full: boolean): string {
  const { ctx, tracker } = run;
  try {
    const asked = run.options.tieOut === true;
    return destinationTieout(ctx, asked) ?? writeTieout(ctx, tracker, full, null, asked);
  } catch (e) {
    const why =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : e instanceof Error
          ? e.message
          : String(e);
    const said = `Tie-out not run this time: ${why}`;
    ctx.state.update('tieout', { notRun: said });
    if (e instanceof SheetLayoutError) throw new SheetLayoutError(e.sheetName, said, e.place);
    if (e instanceof SheetOwnershipError) throw new SheetOwnershipError(e.sheetName, said, e.place);
    if (isApiError(e)) throw e;
    run.tieoutNotRun = true;
    return said;
  }
}
