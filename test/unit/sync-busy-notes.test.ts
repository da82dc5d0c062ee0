/**
 * A run that finds the document lock taken leaves a note instead of writing the Sync log
 * (busy-notes.ts): each note under its own key, so concurrent busy runs never overwrite each
 * other, and the lock holder takes each note exactly once.
 */
import { emptyCounts } from '../../src/contract/counts-text';
import { describe, expect, it } from 'vitest';
import { leaveBusyNote, takeBusyNotes, type BusyNoteStore } from '../../src/server/sync/busy-notes';
import type { LogEntry } from '../../src/server/sync/sync-log';

function memoryStore(): BusyNoteStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getProperties: () => Object.fromEntries(values),
    setProperty: (k, v) => values.set(k, v),
    deleteProperty: (k) => values.delete(k),
  };
}

const entry = (startedAt: number, message = 'Another sync of this spreadsheet is running'): LogEntry => ({
  startedAt,
  endedAt: startedAt + 1000,
  job: 'orders, products, daily',
  pages: 0,
  counts: emptyCounts(),
  requests: 0,
  rateLimitWaits: 0,
  outcome: 'busy',
  message,
});

describe('busy runs leave notes the lock holder writes once', () => {
  it('two busy runs at once: both notes kept, taken oldest first, then gone', () => {
    const store = memoryStore();
    store.setProperty('ma.sync.orders', '{"watermark":null}');
    leaveBusyNote(store, 'b', entry(2_000));
    leaveBusyNote(store, 'a', entry(1_000));
    expect(takeBusyNotes(store).map((n) => n.startedAt)).toEqual([1_000, 2_000]);
    expect(takeBusyNotes(store)).toEqual([]);
    expect([...store.values.keys()]).toEqual(['ma.sync.orders']);
  });

  it('a damaged note is dropped with its key; a long message is bounded', () => {
    const store = memoryStore();
    store.setProperty('ma.sync.busy.x', '{not json');
    leaveBusyNote(store, 'y', entry(5, 'é'.repeat(20_000)));
    const notes = takeBusyNotes(store);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message.length).toBeLessThanOrEqual(500);
    expect(store.values.size).toBe(0);
  });
});
