import { describe, expect, it } from 'vitest';
import { SyncStateStore, type PropertyStoreLike } from '../../src/server/state/sync-state';
import { parseSchedule } from '../../src/server/sync/schedule-record';
import { parseDemoArgs, toCellArgument, UsageError } from '../../dev/demo/args';

function memoryStore(
  initial: Record<string, string> = {},
): PropertyStoreLike & { data: Record<string, string>; writes: number } {
  const store = {
    data: { ...initial },
    writes: 0,
    getProperties: () => ({ ...store.data }),
    getProperty: (k: string): string | null => store.data[k] ?? null,
    setProperty: (k: string, v: string) => {
      store.writes++;
      store.data[k] = v;
    },
  };
  return store;
}

describe('checkpoints live in document properties', () => {
  it('a first run starts without a watermark; a saved watermark is read back by the next run', () => {
    const props = memoryStore();
    const first = new SyncStateStore(props);
    expect(first.get('orders').watermark).toBeNull();
    first.update('orders', { watermark: '2024-05-01T00:00:00Z' });
    expect(props.writes).toBe(1);
    expect(new SyncStateStore(props).get('orders')).toMatchObject({
      watermark: '2024-05-01T00:00:00Z',
      createdAfter: null,
    });
  });
  it('a damaged value restarts that job from scratch instead of failing', () => {
    const state = new SyncStateStore(
      memoryStore({ 'ma.sync.orders': '{not json', 'ma.sync.daily': '{"historyDone":true}' }),
    );
    expect(state.get('orders').watermark).toBeNull();
    expect(state.get('daily')).toMatchObject({ historyDone: true, trailingDays: 60 });
  });
});

describe('schedule values', () => {
  it('reads hourly and daily at an hour; anything else is off', () => {
    expect(parseSchedule('{"kind":"hourly"}')).toEqual({ kind: 'hourly' });
    expect(parseSchedule('{"kind":"daily","hour":6}')).toEqual({ kind: 'daily', hour: 6 });
    expect(parseSchedule('{"kind":"daily","hour":24}')).toEqual({ kind: 'off' });
    expect(parseSchedule('garbage')).toEqual({ kind: 'off' });
    expect(parseSchedule(null)).toEqual({ kind: 'off' });
  });
});

describe('npm run demo flags (Contracts → Demo CLI)', () => {
  it('defaults: 5000 orders, seed 1, out/', () => {
    expect(parseDemoArgs([])).toMatchObject({
      orders: 5000,
      seed: 1,
      out: 'out',
      api: null,
      state: null,
      reconcile: false,
      call: null,
    });
  });
  it('reads every flag', () => {
    const a = parseDemoArgs([
      '--orders',
      '200',
      '--seed',
      '7',
      '--api',
      'http://127.0.0.1:8787',
      '--state',
      '.state',
      '--out',
      'o',
      '--reconcile',
      '--call',
      'PROFIT_SUMMARY',
      '--args',
      '[{"date":"2024-01-01"},{"date":"2024-01-31"}]',
    ]);
    expect(a).toMatchObject({
      orders: 200,
      seed: 7,
      api: 'http://127.0.0.1:8787',
      state: '.state',
      out: 'o',
      reconcile: true,
      call: 'PROFIT_SUMMARY',
    });
    expect(a.args).toHaveLength(2);
  });
  it('--run NAME [--args JSON] names a global to run after the sync; it excludes --call', () => {
    expect(parseDemoArgs(['--run', 'insertDashboard'])).toMatchObject({ run: 'insertDashboard', call: null, args: [] });
    expect(parseDemoArgs(['--run', 'closeMonth', '--args', '[{"month":"2026-10"}]'])).toMatchObject({
      run: 'closeMonth',
      args: [{ month: '2026-10' }],
    });
    expect(() => parseDemoArgs(['--run', 'closeMonth', '--call', 'PROFIT_SUMMARY'])).toThrow(UsageError);
    expect(() => parseDemoArgs(['--args', '[1]'])).toThrow(/--call NAME or --run NAME/);
  });
  it('refuses unknown flags and bad values with a usage error', () => {
    expect(() => parseDemoArgs(['--orderz', '1'])).toThrow(UsageError);
    expect(() => parseDemoArgs(['--orders', 'many'])).toThrow(UsageError);
    expect(() => parseDemoArgs(['--call', 'X', '--args', '{oops'])).toThrow(UsageError);
  });
  it('a {"date": …} argument becomes midnight of that day in the spreadsheet zone', () => {
    const d = toCellArgument({ date: '2024-01-15' }, 'America/New_York') as Date;
    expect(d.toISOString()).toBe('2024-01-15T05:00:00.000Z');
    expect(toCellArgument('x', 'UTC')).toBe('x');
  });
});

describe('lost settings: a setting changed while a sync runs survives its checkpoints', () => {
  it('the orders window chosen in the sidebar mid-run is not overwritten by the run’s next checkpoint', () => {
    const props = memoryStore();
    const run = new SyncStateStore(props); // read once at the start of the sync execution
    run.update('orders', { watermark: '2025-01-01T00:00:00Z' });
    const sidebar = new SyncStateStore(props); // another execution, while the sync runs
    sidebar.update('orders', { createdAfter: '2025-03-01' });
    sidebar.update('reconcile', { intervalDays: 7 });
    run.update('orders', { watermark: '2025-02-01T00:00:00Z', caughtUp: false });
    run.update('reconcile', { watermark: '2025-02-01T00:00:00Z' });
    const after = new SyncStateStore(props);
    expect(after.get('orders')).toMatchObject({ createdAfter: '2025-03-01', watermark: '2025-02-01T00:00:00Z' });
    expect(after.get('reconcile')).toMatchObject({ intervalDays: 7, watermark: '2025-02-01T00:00:00Z' });
  });
});
