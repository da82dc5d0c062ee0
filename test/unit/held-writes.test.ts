import { describe, expect, it } from 'vitest';
import { HeldWrites, MAX_HELD_WRITES } from '../../src/server/platform/held-writes';

/** A document store that keeps what reached it and counts the calls that would be billed. */
function memoryProperties(initial: Record<string, string> = {}) {
  const data: Record<string, string> = { ...initial };
  const calls: string[] = [];
  const store = {
    getProperty: (k: string) => (calls.push(`get ${k}`), data[k] ?? null),
    getProperties: () => (calls.push('getAll'), { ...data }),
    getKeys: () => (calls.push('keys'), Object.keys(data)),
    setProperty: (k: string, v: string) => (calls.push(`set ${k}`), (data[k] = v), store),
    setProperties: (values: Record<string, string>) => (calls.push('setAll'), Object.assign(data, values), store),
    deleteProperty: (k: string) => (calls.push(`delete ${k}`), delete data[k], store),
    deleteAllProperties: () => store,
  };
  return { data, calls, store: store as unknown as GoogleAppsScript.Properties.Properties };
}

describe('the run state held between checkpoints', () => {
  it('reaches the store in one write at the checkpoint, and reads see it before', () => {
    const m = memoryProperties({ 'ma.formulasOwed': '1' });
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperty('ma.sync.daily', '{"dirtyFrom":"2026-01-02"}');
    props.setProperties({ 'ma.orderSums': 'sums', 'ma.sync.openLogRow': '7' });
    props.deleteProperty('ma.formulasOwed');
    expect(m.calls).toEqual([]);
    expect(props.getProperty('ma.sync.daily')).toBe('{"dirtyFrom":"2026-01-02"}');
    expect(props.getProperty('ma.formulasOwed')).toBeNull();
    expect(props.getProperties()).toEqual({
      'ma.sync.daily': '{"dirtyFrom":"2026-01-02"}',
      'ma.orderSums': 'sums',
      'ma.sync.openLogRow': '7',
    });
    m.calls.length = 0;
    held.checkpoint();
    expect(m.calls).toEqual(['setAll', 'delete ma.formulasOwed']);
    expect(m.data).toEqual({
      'ma.sync.daily': '{"dirtyFrom":"2026-01-02"}',
      'ma.orderSums': 'sums',
      'ma.sync.openLogRow': '7',
    });
  });

  it('writes the connection, the schedule, cancel and busy notes at once: other executions read them while the run holds the lock', () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperty('ma.accessToken', 't');
    props.setProperty('ma.sync.schedule', '{}');
    props.setProperty('ma.sync.cancelAt', '1');
    props.setProperties({ 'ma.sync.busy.x': 'note', 'ma.sync.tieout': '{}' });
    expect(m.calls).toEqual(['set ma.accessToken', 'set ma.sync.schedule', 'set ma.sync.cancelAt', 'setAll']);
    expect(Object.keys(m.data)).toEqual(['ma.accessToken', 'ma.sync.schedule', 'ma.sync.cancelAt', 'ma.sync.busy.x']);
  });

  it('holds a part the sidebar also writes no longer than a run step; other parts until the next checkpoint', () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperty('ma.sync.tieout', '{}');
    held.stepCheckpoint();
    expect(m.calls).toEqual([]);
    props.setProperty('ma.sync.daily', '{"dirtyFrom":null}');
    held.stepCheckpoint();
    expect(m.calls).toEqual(['setAll']);
    expect(Object.keys(m.data).sort()).toEqual(['ma.sync.daily', 'ma.sync.tieout']);
  });

  it("stores a feed's watermark at once, with everything held: a pass keeps its progress page by page", () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperty('ma.reconcile.seen.1', 'x');
    expect(m.calls).toEqual([]);
    props.setProperty('ma.sync.reconcile', '{"watermark":"w"}');
    expect(m.calls).toEqual(['setAll']);
    expect(m.data).toEqual({ 'ma.reconcile.seen.1': 'x', 'ma.sync.reconcile': '{"watermark":"w"}' });
  });

  it(`stores what is held after ${MAX_HELD_WRITES} held writes: a pass that writes no sheet keeps its progress every few pages`, () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    for (let page = 1; page < MAX_HELD_WRITES; page++) props.setProperty('ma.reconcile.seen.1', `${page}`);
    expect(m.calls).toEqual([]);
    props.setProperties({ 'ma.reconcile.seen.1': '20', 'ma.reconcile.seen.2': 'x' });
    expect(m.calls).toEqual(['setAll']);
    expect(m.data).toEqual({ 'ma.reconcile.seen.1': '20', 'ma.reconcile.seen.2': 'x' });
  });

  it('writes at once when not holding, and release writes what was held', () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    props.setProperty('ma.sync.tieout', 'a');
    expect(m.calls).toEqual(['set ma.sync.tieout']);
    held.hold();
    props.setProperty('ma.sync.tieout', 'b');
    held.release();
    props.setProperty('ma.sync.tieout', 'c');
    expect(m.calls).toEqual(['set ma.sync.tieout', 'setAll', 'set ma.sync.tieout']);
    expect(m.data['ma.sync.tieout']).toBe('c');
  });

  it("holds the setting parts the run's start wrote until the first checkpoint of its steps, not to the end of the first step", () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperties({ 'ma.sync.columns': '{"layouts":{}}', 'ma.sync.openLogRow': '2' });
    held.beginSteps();
    held.stepCheckpoint();
    expect(m.calls).toEqual([]);
    props.setProperty('ma.sync.capacity', '{"stoppedAt":null}');
    held.checkpoint();
    expect(m.calls).toEqual(['setAll']);
    expect(Object.keys(m.data).sort()).toEqual(['ma.sync.capacity', 'ma.sync.columns', 'ma.sync.openLogRow']);
  });

  it("holds a feed's key written as no position (the first backfill's note) until the next checkpoint", () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    held.noPosition(() => props.setProperty('ma.sync.reconcile', '{"lastCompletedAt":1}'));
    expect(m.calls).toEqual([]);
    props.setProperty('ma.sync.reconcile', '{"watermark":"w"}');
    expect(m.calls).toEqual(['setAll']);
  });

  it("holds any key written with the run's state (a first run's store tag) until the next checkpoint; reads see it", () => {
    const m = memoryProperties();
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    held.withRunState(() => props.setProperties({ 'ma.storeTag': 'sto_1' }));
    props.setProperty('ma.accessToken', 't');
    expect(m.calls).toEqual(['set ma.accessToken']);
    expect(props.getProperty('ma.storeTag')).toBe('sto_1');
    held.checkpoint();
    expect(m.data['ma.storeTag']).toBe('sto_1');
  });
});
