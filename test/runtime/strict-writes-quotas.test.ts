/**
 * The strict runtime: SpreadsheetApp writes reach the Sheets API only after a flush, and the
 * quotas that end real syncs (Sheets API per minute, UrlFetch and trigger runtime per day).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRuntime,
  TRIGGER_QUOTA_MESSAGE,
  URL_FETCH_QUOTA_MESSAGE,
  type GasRuntime,
  type RuntimeOptions,
} from '../../dev/gas-runtime/index.js';

const STRICT_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'strict');
const USER = 'finance@example.com';
let runtime: GasRuntime | undefined;

async function strictRuntime(options: Partial<RuntimeOptions> = {}): Promise<GasRuntime> {
  runtime = await createRuntime({
    distDir: STRICT_DIST,
    user: { email: USER },
    startTime: Date.UTC(2026, 2, 2, 12),
    ...options,
  });
  return runtime;
}

async function value(rt: GasRuntime, name: string, args: unknown[] = []): Promise<unknown> {
  const result = await rt.run(name, args);
  expect(result.error).toBeUndefined();
  return result.value;
}

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

describe('SpreadsheetApp write buffer', () => {
  it('keeps writes from the Sheets API until SpreadsheetApp.flush()', async () => {
    const rt = await strictRuntime();
    expect(await value(rt, 'writeThenApiRead')).toEqual({ before: [], after: [['a', 'b']] });
  });

  it("applies a sheet's pending writes when SpreadsheetApp reads that sheet", async () => {
    const rt = await strictRuntime();
    expect(await value(rt, 'writeThenSheetRead')).toEqual({ last: 3, api: [['c']] });
  });

  it('refuses a Values.batchUpdate past a grid whose growth is still pending, as Google does', async () => {
    const rt = await strictRuntime();
    const pending = (await value(rt, 'growThenApiWrite', [false])) as Record<string, unknown>;
    expect(pending.apiRowsBeforeWrite).toBe(1000);
    expect(pending.written).toBeUndefined();
    expect(pending.error).toMatch(/exceeds grid limits/);
    // The growth itself is not lost: it is applied at the end of the execution.
    expect(rt.workbook.sheets[0].maxRows).toBe(1010);
    const flushed = (await value(rt, 'growThenApiWrite', [true])) as Record<string, unknown>;
    expect(flushed).toMatchObject({ rowsBefore: 1010, apiRowsBeforeWrite: 1020, written: true });
  });

  it('lets a Sheets API write through while SpreadsheetApp changes are pending, and applies both', async () => {
    const rt = await strictRuntime();
    expect(await value(rt, 'formatThenApiWrite')).toEqual({ apiB2: [], apiD4: [['api']] });
    expect(await value(rt, 'readBack', ['B2:D4'])).toEqual({
      values: [
        ['7.00', '', ''],
        ['', '', ''],
        ['', '', 'api'],
      ],
      frozen: 1,
    });
  });

  it('applies pending writes at the end of the execution; the time limit loses them', async () => {
    const rt = await strictRuntime();
    await value(rt, 'writeAndEnd', ['kept']);
    const cut = await rt.run('writeAndSpin', ['lost']);
    expect(cut.timedOut).toBe(true);
    expect(await value(rt, 'readBack', ['E5:E6'])).toMatchObject({ values: [['kept'], ['']] });
  });

  it('keeps developer metadata from the Sheets API until flushed', async () => {
    const rt = await strictRuntime();
    expect(await value(rt, 'tagThenApiRead')).toEqual({ before: [], after: ['owner=store-1'] });
  });

  it('keeps a pending metadata setValue when a Sheets API write comes before the flush', async () => {
    const rt = await strictRuntime();
    await value(rt, 'retagThenApiWrite', ['first']);
    await value(rt, 'retagThenApiWrite', ['second']);
    expect(await value(rt, 'markerValues')).toEqual(['second']);
    expect(rt.workbook.developerMetadata.filter((m) => m.key === 'marker').map((m) => m.value)).toEqual(['second']);
  });
});

describe('Sheets API quotas', () => {
  it("allows 60 write requests a minute per user, then answers with Google's 429 text", async () => {
    const rt = await strictRuntime({ costModel: false });
    const result = await rt.run('apiRequests', ['write', 61]);
    const out = result.value as { done: number; error?: string };
    expect(out.done).toBe(60);
    expect(out.error).toMatch(
      /^API call to sheets\.spreadsheets\.values\.batchUpdate failed with error: Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets\.googleapis\.com' for consumer 'project_number:\d+'\..*429/,
    );
    expect(result.counts).toMatchObject({ sheetsApiWrites: 60, quotaRefusals: 1 });
    expect(result.counts.quota).toMatchObject({ user: USER, sheetsWritesLastMinute: 60 });
    // Reads have their own 60.
    expect(((await rt.run('apiRequests', ['read', 5])).value as { done: number }).done).toBe(5);
    // A minute later on the runtime clock the writes are allowed again.
    rt.clock.advance(60_000);
    expect((await rt.run('apiRequests', ['write', 10])).value as { done: number; error?: string }).toEqual({
      done: 10,
    });
  });

  it('counts read requests separately, 60 a minute', async () => {
    const rt = await strictRuntime({ costModel: false });
    const out = (await rt.run('apiRequests', ['read', 70])).value as { done: number; error?: string };
    expect(out.done).toBe(60);
    expect(out.error).toMatch(/limit 'Read requests per minute per user'/);
  });

  it('counts a sliding minute: 60 requests spread over 59 s leave no room at second 59', async () => {
    const rt = await strictRuntime({ costModel: false, modelledTimeOnly: true });
    for (let i = 0; i < 6; i++) {
      if (i > 0) rt.clock.advance(11_000);
      expect(((await rt.run('apiRequests', ['write', 10])).value as { done: number }).done).toBe(10);
    }
    // 55 s after the first ten: all 60 still in the window.
    expect(((await rt.run('apiRequests', ['write', 1])).value as { done: number }).done).toBe(0);
    rt.clock.advance(6_000);
    expect(((await rt.run('apiRequests', ['write', 11])).value as { done: number }).done).toBe(10);
  });
});

describe('daily quotas', () => {
  it('refuses the 20,001st UrlFetch call of a day', async () => {
    const rt = await strictRuntime();
    expect(rt.quotas.takeUrlFetches(USER, 20_000)).toBe(true);
    const result = await rt.run('fetchOnce');
    expect(result.value).toBe(URL_FETCH_QUOTA_MESSAGE);
    expect(result.counts.quotaRefusals).toBe(1);
    expect(result.counts.quota?.urlFetchesLast24h).toBe(20_000);
  });

  it('ends trigger runs at 90 minutes a day per user and runs none until the window frees', async () => {
    // Modelled time only: real time flowing under load would add to each run's minutes.
    const rt = await strictRuntime({ modelledTimeOnly: true });
    const uid = (await value(rt, 'createHourlyTrigger')) as string;
    await value(rt, 'setWorkMinutes', [5]);
    // 17 runs of 5 minutes = 85 minutes.
    for (let i = 0; i < 17; i++) {
      const r = await rt.fireTrigger(uid);
      expect(r.ok).toBe(true);
      rt.clock.advance(55 * 60_000);
    }
    const cut = await rt.fireTrigger(uid);
    expect(cut.ok).toBe(false);
    expect(cut.error?.message).toBe(TRIGGER_QUOTA_MESSAGE);
    expect(cut.elapsedMs).toBeLessThanOrEqual(5 * 60_000 + 1_000);
    expect(cut.counts.quota?.triggerMsLast24h).toBeGreaterThanOrEqual(90 * 60_000);
    const refused = await rt.fireTrigger(uid);
    expect(refused).toMatchObject({ ok: false, elapsedMs: 0, error: { message: TRIGGER_QUOTA_MESSAGE } });
    // A sidebar execution is not a trigger: it still runs.
    expect((await rt.run('setWorkMinutes', [1])).ok).toBe(true);
    // A day after the first run, its minutes leave the window.
    rt.clock.advance(24 * 3_600_000);
    expect((await rt.fireTrigger(uid)).ok).toBe(true);
  });

  it('gives a Workspace account 6 hours of trigger runtime', async () => {
    const rt = await strictRuntime({ account: 'workspace', modelledTimeOnly: true });
    const uid = (await value(rt, 'createHourlyTrigger')) as string;
    await value(rt, 'setWorkMinutes', [5]);
    for (let i = 0; i < 20; i++) {
      expect((await rt.fireTrigger(uid)).ok).toBe(true);
      rt.clock.advance(55 * 60_000);
    }
    expect(rt.quotas.use(USER)).toMatchObject({ triggerAllowanceMs: 6 * 3_600_000 });
  });
});
