/**
 * The Sync log sheet: one row per run, written when the run starts (outcome "running") and
 * completed when it ends. A row still "running" at the next run belongs to an execution the time
 * limit ended; it is marked "interrupted". The log keeps the newest MAX_LOG_ROWS rows.
 */
import type { ManagedWorkbook } from '../sheets/managed-workbook';
import { buildRow } from '../sheets/rows';
import { noteSpreadsheetChange } from '../sheets/sheets-requests';
import { clipText, utf8Bytes } from '../platform/property-size';
import { SYNC_LOG, columnIndex } from '../sheets/schema';
import { hasBusyNotes, takeBusyNotes, type BusyNoteStore } from './busy-notes';
import type { LogEntry } from './log-entry';
import type { SyncStateStore } from '../state/sync-state';
import type { RunRecord } from '../state/run-records';
import { emptyCounts, packCounts, rowsWritten, unpackCounts } from '../../contract/counts-text';
import type { SyncCounts } from '../../contract/sidebar';
import { isPauseCause } from '../../contract/pause-text';

export type { LogEntry } from './log-entry';

/** The Sync log's job of the on-demand tie-out ("Check again"), which syncs nothing. */
export const CHECK_JOB = 'check';

export const MAX_LOG_ROWS = 500;
/** Trim only when this many rows are over the bound, so trimming is rare. */
const TRIM_SLACK = 50;
const LAST_RUNS_KEPT = 20;
/** A run's message as remembered for the sidebar (the Sync log row keeps it whole). */
export const RUN_MESSAGE_MAX_CHARS = 600;
/** The list of recent runs stays well under Google's 9 KB per property: the oldest go first. */
export const LAST_RUNS_MAX_BYTES = 8 * 1024;

/** A run as the Sync log remembers it for the sidebar: the stored record plus why it stopped. */
export interface LoggedRun extends RunRecord {
  failureCode: string | null;
  connectionLost: boolean;
  pausedUntil: number | null;
  /** What the run wrote (its Sync log row's counts); null for records of older versions. */
  counts: SyncCounts | null;
}

/** The recent runs, newest first; records saved before these fields existed read as plain runs. */
export function loggedRuns(state: SyncStateStore): LoggedRun[] {
  return state.get('lastRuns').map((run) => ({
    ...run,
    failureCode: typeof run.failureCode === 'string' ? run.failureCode : null,
    connectionLost: run.connectionLost === true,
    pausedUntil: typeof run.pausedUntil === 'number' ? run.pausedUntil : null,
    // A stored value this version does not name reads as an unknown cause, never as another's words.
    pauseFor: isPauseCause(run.pauseFor) ? run.pauseFor : undefined,
    counts: unpackCounts(run.written),
  }));
}

export class SyncLog {
  private row: number | null = null;

  /** `notes`: where runs that found the lock taken left their rows (the busy notes); only a lock holder takes them. */
  constructor(
    private readonly workbook: ManagedWorkbook,
    private readonly state: SyncStateStore,
    private readonly notes: BusyNoteStore,
  ) {}

  /** Closes a row an interrupted run left open (one call), then writes the busy runs' rows and the run's first row in one call. */
  open(entry: LogEntry): void {
    // The notes as the state's whole read under the lock found them; later ones are taken at close.
    const busy = this.busyRows(this.workbook.lastRowAtOpen(SYNC_LOG) + 1, this.state.readAtStart);
    const next = this.workbook.lastRowAtOpen(SYNC_LOG) + 1 + busy.length;
    const rows = [...busy, { row: next, column: 1, cells: this.cells(entry) }];
    const stale = this.state.get('openLogRow');
    if (stale !== null && stale >= 2 && stale < next && this.stillRunning(stale)) {
      // Marked before the marker moves on: a run ended between the two would leave that row
      // "running" with nothing pointing at it (the next run would write its own row over the marker's).
      this.workbook.write([
        {
          schema: SYNC_LOG,
          rows: [
            {
              row: stale,
              column: columnIndex(SYNC_LOG, 'outcome') + 1,
              cells: [
                'interrupted',
                'The run was ended by the Apps Script time limit; the next run resumed from the last saved checkpoint.',
              ],
            },
          ],
        },
      ]);
    }
    // The marker first: a run ended between the two calls must not leave a row "running" that no
    // marker points at. A marker without its row is harmless (the next run writes at that row).
    this.state.save('openLogRow', next);
    this.workbook.write([{ schema: SYNC_LOG, rows }]);
    this.row = next;
  }

  /**
   * Whether a row the marker points at still says "running" (one read, only after an execution was
   * ended): a run ended between its closing row and clearing the marker finished, and its row says so.
   */
  private stillRunning(row: number): boolean {
    const [cells] = this.workbook.readRows(SYNC_LOG, [row], ['outcome']);
    return cells?.[columnIndex(SYNC_LOG, 'outcome')] === 'running';
  }

  /**
   * As open, but the run's first row rides along with the run's next sheet write instead of a
   * Values.batchUpdate of its own (330 ms, apps-script-cost-model.md); the closing row replaces
   * it when nothing was written between. The marker is stored before that write (held writes): an
   * execution ended between the two leaves a marker without its row, which is harmless (open).
   * A row to mark "interrupted" or busy runs' notes to write are written at once, as open does:
   * the one must be marked before the marker moves on, the others are already taken from the store.
   */
  openWithNextWrite(entry: LogEntry): void {
    const next = this.workbook.lastRowAtOpen(SYNC_LOG) + 1;
    const stale = this.state.get('openLogRow');
    if ((stale !== null && stale >= 2 && stale < next) || hasBusyNotes(this.state.readAtStart)) {
      this.open(entry);
      return;
    }
    this.state.save('openLogRow', next);
    this.workbook.defer([
      { schema: SYNC_LOG, rows: [{ row: next, column: 1, cells: this.cells(entry) }], opensRun: true },
    ]);
    this.row = next;
  }

  /**
   * Completes the run's row, writes the rows of runs that found the lock taken meanwhile, and
   * records the run. A run that never opened a row (failure before the first job) appends a row of
   * its own and leaves the open-row marker alone: it may belong to a run still in progress.
   * The caller holds the document lock (a busy run leaves a note instead: the busy notes).
   * A `quiet` run (a reconciliation that found nothing) whose opening row was never sent writes no
   * row: the recent runs (the sidebar) still record when it ran and what it found.
   */
  close(entry: LogEntry, quiet = false): void {
    if (this.row === null) {
      const busy = this.busyRows(this.workbook.lastRowAtOpen(SYNC_LOG) + 1);
      const next = this.workbook.lastRowAtOpen(SYNC_LOG) + 1 + busy.length;
      this.workbook.write([{ schema: SYNC_LOG, rows: [...busy, { row: next, column: 1, cells: this.cells(entry) }] }]);
    } else {
      const busy = this.busyRows(this.row + 1);
      if (quiet && busy.length === 0 && this.workbook.dropOpeningRow()) {
        this.state.saveAll({
          openLogRow: null,
          lastRuns: boundedRuns([this.record(entry), ...this.state.get('lastRuns')]),
        });
        return;
      }
      this.workbook.write([
        { schema: SYNC_LOG, rows: [{ row: this.row, column: 1, cells: this.cells(entry) }, ...busy] },
      ]);
    }
    const lastRuns = boundedRuns([this.record(entry), ...this.state.get('lastRuns')]);
    // The run's record and the cleared marker in one write (one call, one drop of the sidebar's stamp).
    if (this.row === null) this.state.save('lastRuns', lastRuns);
    else this.state.saveAll({ openLogRow: null, lastRuns });
    this.trim();
  }

  /** The run as the recent runs keep it. */
  private record(entry: LogEntry): RunRecord {
    return {
      job: clipText(entry.job, 60),
      startedAt: entry.startedAt,
      endedAt: entry.endedAt,
      outcome: entry.outcome,
      rows: rowsWritten(entry.counts),
      written: packCounts(entry.counts),
      message: clipText(entry.message, RUN_MESSAGE_MAX_CHARS),
      failureCode: entry.failureCode ? clipText(entry.failureCode, 40) : null,
      connectionLost: entry.connectionLost === true,
      pausedUntil: entry.pausedUntil ?? null,
      // Only a pause has a cause (a few bytes: the recent runs stay within their bound).
      ...(entry.pausedUntil != null && entry.pauseFor ? { pauseFor: entry.pauseFor } : {}),
    };
  }

  /**
   * A row that records an event, not a run (the schedule resumed after a reconnect): appended on
   * its own, leaving the open-row marker and the recent runs alone. The caller holds the document lock.
   */
  note(at: number, job: string, message: string): void {
    const next = this.workbook.lastRowAtOpen(SYNC_LOG) + 1;
    const entry: LogEntry = {
      startedAt: at,
      endedAt: at,
      job,
      pages: 0,
      counts: emptyCounts(),
      requests: 0,
      rateLimitWaits: 0,
      outcome: 'ok',
      message,
    };
    this.workbook.write([{ schema: SYNC_LOG, rows: [{ row: next, column: 1, cells: this.cells(entry) }] }]);
  }

  /** The busy runs' notes as rows from `firstRow` on. */
  private busyRows(
    firstRow: number,
    readUnderLock?: Readonly<Record<string, string>>,
  ): Array<{ row: number; column: number; cells: ReturnType<typeof buildRow> }> {
    return takeBusyNotes(this.notes, readUnderLock).map((entry, i) => ({
      row: firstRow + i,
      column: 1,
      cells: this.cells(entry),
    }));
  }

  private trim(): void {
    if (this.row === null || this.row - 1 <= MAX_LOG_ROWS + TRIM_SLACK) return;
    const excess = this.row - 1 - MAX_LOG_ROWS;
    this.workbook.ensure(SYNC_LOG).deleteRows(2, excess);
    noteSpreadsheetChange();
    this.row -= excess;
  }

  private cells(entry: LogEntry): ReturnType<typeof buildRow> {
    // A tie-out check syncs nothing: its row says its result, with no counts (never "0 new").
    const counted = entry.job !== CHECK_JOB;
    const count = (n: number): number | null => (counted ? n : null);
    return buildRow(
      SYNC_LOG,
      {},
      {
        started_at: new Date(entry.startedAt).toISOString(),
        ended_at: entry.endedAt === null ? null : new Date(entry.endedAt).toISOString(),
        job: entry.job,
        orders_added: count(entry.counts.ordersAdded),
        orders_updated: count(entry.counts.ordersUpdated),
        orders_cancelled: count(entry.counts.ordersCancelled),
        orders_gone: count(entry.counts.ordersGone),
        line_items: count(entry.counts.lineItems),
        products: count(entry.counts.products),
        variants: count(entry.counts.variants),
        pnl_days: count(entry.counts.days),
        pages: count(entry.pages),
        requests: entry.requests,
        rate_limit_waits: entry.rateLimitWaits,
        outcome: entry.outcome,
        message: entry.message,
      },
      this.workbook.timeZone,
    );
  }
}

/** The newest runs that fit: at most LAST_RUNS_KEPT and LAST_RUNS_MAX_BYTES (older records are clipped too). */
export function boundedRuns(runs: readonly RunRecord[]): RunRecord[] {
  const kept = runs.slice(0, LAST_RUNS_KEPT).map((r) => ({
    ...r,
    job: clipText(String(r.job), 60),
    message: clipText(String(r.message), RUN_MESSAGE_MAX_CHARS),
  }));
  while (kept.length > 1 && utf8Bytes(JSON.stringify(kept)) > LAST_RUNS_MAX_BYTES) kept.pop();
  return kept;
}
