/**
 * Rows deferred to ride along with the run's next sheet write (the Daily P&L pages, the products'
 * last page) raise a fence in the held run state: the state saved after them (the daily job's
 * resume point, the products' watermark) describes rows not yet in the sheet, so no checkpoint may
 * store it before the write that carries them; an execution ended before that write must find
 * the store as it was, and the next run fetches the rows again.
 */
import { describe, expect, it } from 'vitest';
import { HeldWrites } from '../../src/server/platform/held-writes';

function memoryStore(initial: Record<string, string> = {}) {
  const data: Record<string, string> = { ...initial };
  const store = {
    getProperty: (k: string) => data[k] ?? null,
    getProperties: () => ({ ...data }),
    getKeys: () => Object.keys(data),
    setProperty: (k: string, v: string) => ((data[k] = v), store),
    setProperties: (values: Record<string, string>) => (Object.assign(data, values), store),
    deleteProperty: (k: string) => (delete data[k], store),
    deleteAllProperties: () => store,
  };
  return { data, store: store as unknown as GoogleAppsScript.Properties.Properties };
}

describe('the run state behind deferred rows', () => {
  it('is stored only after the write that carries the rows: a checkpoint before it stores what came before the fence', () => {
    const m = memoryStore({ 'ma.sync.daily': '{"resumeFrom":"2026-01-01"}' });
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    props.setProperty('ma.formulasOwed', '1');
    held.fence();
    props.setProperty('ma.sync.daily', '{"resumeFrom":"2026-03-01"}');
    // A feed's checkpoint behind the fence waits too.
    props.setProperty('ma.sync.products', '{"watermark":"w2"}');
    expect(props.getProperty('ma.sync.daily'), 'the run reads its own state').toBe('{"resumeFrom":"2026-03-01"}');
    // The checkpoint made before the carrying write is sent.
    held.checkpoint();
    expect(m.data).toEqual({ 'ma.sync.daily': '{"resumeFrom":"2026-01-01"}', 'ma.formulasOwed': '1' });
    // The write is sent: what waited is stored at the next checkpoint.
    held.liftFence();
    held.release();
    expect(m.data).toEqual({
      'ma.sync.daily': '{"resumeFrom":"2026-03-01"}',
      'ma.sync.products': '{"watermark":"w2"}',
      'ma.formulasOwed': '1',
    });
  });

  it('is dropped when the carrying write was never sent (the run ends with the fence up)', () => {
    const m = memoryStore({ 'ma.sync.daily': '{"resumeFrom":"2026-01-01"}' });
    const held = new HeldWrites(m.store);
    const props = held.properties();
    held.hold();
    held.fence();
    props.setProperty('ma.sync.daily', '{"resumeFrom":"2026-03-01"}');
    held.release();
    expect(m.data).toEqual({ 'ma.sync.daily': '{"resumeFrom":"2026-01-01"}' });
  });
});
