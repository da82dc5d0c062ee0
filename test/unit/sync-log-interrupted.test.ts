/**
 * The Sync log's promise (sync-log.ts): a row left "running" by an execution the time limit ended
 * is marked "interrupted" by a later run. Here the run that should mark it is itself ended by the
 * time limit at its first log write: the old row must be marked already, or the open-row marker
 * must still point at it (so the run after marks it). Checked on a sheet kept as rows and cells.
 */
import { describe, expect, it } from 'vitest';
import type { ManagedWorkbook, TableWrite } from '../../src/server/sheets/managed-workbook';
import { columnIndex, SYNC_LOG } from '../../src/server/sheets/schema';
import { SyncStateStore, type PropertyStoreLike } from '../../src/server/state/sync-state';
import { SyncLog, type LogEntry } from '../../src/server/sync/sync-log';
import { emptyCounts } from '../../src/contract/counts-text';

const OUTCOME = columnIndex(SYNC_LOG, 'outcome');

function memoryStore(): PropertyStoreLike & { deleteProperty(key: string): void } {
  const map = new Map<string, string>();
  return {
    getProperties: () => Object.fromEntries(map),
    getProperty: (key) => map.get(key) ?? null,
    setProperty: (key, value) => map.set(key, value),
    deleteProperty: (key) => map.delete(key),
  };
}

/** The Sync log sheet as rows of cells; `killAt` ends the execution at that write (nothing of it applied). */
function logSheet(rows: Map<number, unknown[]>, killAt: (tables: readonly TableWrite[]) => boolean): ManagedWorkbook {
  return {
    lastRowAtOpen: () => Math.max(1, ...rows.keys()),
    readRows: (_: unknown, sheetRows: readonly number[]) => sheetRows.map((row) => rows.get(row) ?? []),
    write(tables: readonly TableWrite[]): number {
      if (killAt(tables)) throw new Error('Exceeded maximum execution time');
      for (const t of tables) {
        for (const w of t.rows) {
          const row = rows.get(w.row) ?? [];
          w.cells.forEach((cell, i) => (row[w.column - 1 + i] = cell));
          rows.set(w.row, row);
        }
      }
      return 0;
    },
  } as unknown as ManagedWorkbook;
}

function entry(startedAt: number): LogEntry {
  return {
    startedAt,
    endedAt: null,
    job: 'orders',
    pages: 0,
    counts: emptyCounts(),
    requests: 0,
    rateLimitWaits: 0,
    outcome: 'running',
    message: '',
  };
}

describe('a run ended by the time limit while it opens its Sync log row', () => {
  it('leaves no "running" row that the open-row marker does not point at', () => {
    const props = memoryStore();
    const rows = new Map<number, unknown[]>();
    // A first run opens row 2 and is ended by the time limit: its row stays "running", the marker at 2.
    new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(props),
      props,
    ).open(entry(1_000));
    expect(rows.get(2)?.[OUTCOME]).toBe('running');
    // The next run is ended at the write of its own row (row 3).
    const ownRow = (tables: readonly TableWrite[]): boolean =>
      tables.some((t) => t.rows.some((w) => w.row === 3 && w.column === 1));
    expect(() => new SyncLog(logSheet(rows, ownRow), new SyncStateStore(props), props).open(entry(2_000))).toThrow(
      'Exceeded maximum execution time',
    );
    const marker = new SyncStateStore(props).get('openLogRow');
    const running = [...rows.entries()].filter(([, cells]) => cells[OUTCOME] === 'running').map(([row]) => row);
    for (const row of running) expect(row, `row ${row} is "running" and the marker points at ${marker}`).toBe(marker);
  });

  it('a run ended after its closing row but before it cleared the marker keeps its row "ok"', () => {
    const props = memoryStore();
    const rows = new Map<number, unknown[]>();
    const log = new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(props),
      props,
    );
    log.open(entry(1_000));
    // The closing row is written, then the execution ends at the properties write that clears the marker.
    const ending = { ...memoryStore(), setProperty: () => {}, setProperties: () => {} };
    const closing = new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(ending),
      ending,
    );
    (closing as unknown as { row: number }).row = 2;
    closing.close({ ...entry(1_000), endedAt: 2_000, outcome: 'ok', message: 'done' });
    expect(rows.get(2)?.[OUTCOME]).toBe('ok');
    expect(new SyncStateStore(props).get('openLogRow')).toBe(2);
    // The next run finds the marker at row 2, which says "ok": it is left as it is.
    new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(props),
      props,
    ).open(entry(3_000));
    expect(rows.get(2)?.[OUTCOME]).toBe('ok');
    expect(rows.get(3)?.[OUTCOME]).toBe('running');
    expect(new SyncStateStore(props).get('openLogRow')).toBe(3);
  });

  it('a row still "running" at the marker is marked "interrupted"', () => {
    const props = memoryStore();
    const rows = new Map<number, unknown[]>();
    new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(props),
      props,
    ).open(entry(1_000));
    new SyncLog(
      logSheet(rows, () => false),
      new SyncStateStore(props),
      props,
    ).open(entry(2_000));
    expect(rows.get(2)?.[OUTCOME]).toBe('interrupted');
  });
});
