/**
 * A hostile record in the Daily P&L feed: a front (the hostile front) serves two days' net_profit
 * nested 20,000 deep, one in the trailing window and one the first backfill reads only once. SAFE:
 * each is skipped on its own and named (Sync log, sidebar, ✗ in Checks); no row stands for it (an
 * empty row would sum as 0 in the Monthly P&L, which says the month lacks a day); every other day
 * equals the emulator's truth; once the service serves them whole, the next run writes both (the
 * old one asked for on its own) and the sheets equal the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithTruth, sheetTable } from '../integration/sync-support';
import { addDays } from '../../src/server/platform/calendar';
import { deepArrayText, startHostileFront, type HostileFront } from './support/hostile-front';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { runUntilSettled } from './support/verdict';

const HOUR_MS = 3_600_000;
let stack: ReliabilityStack;
let front: HostileFront;
let recent: string;
let old: string;

beforeAll(async () => {
  front = await startHostileFront();
  stack = await startReliabilityStack({ orders: 40, seed: 11, urlFetchAllow: [`${front.url}/`] });
  front.upstream = stack.apiUrl;
  stack.runtime.properties.script.set('MA_API_BASE_URL', front.url);
  const today = String(((await stack.truth('store')) as { today: unknown }).today);
  recent = addDays(today, -5);
  old = addDays(today, -200);
  front.rewrite = (req, status, body) => {
    if (!req.path.startsWith('/api/v1/profitability/daily') || status !== 200) return null;
    const json = JSON.parse(body) as { data?: Array<Record<string, unknown>> };
    const hit = (json.data ?? []).filter((d) => d.date === recent || d.date === old);
    if (hit.length === 0) return null;
    for (const day of hit) day.net_profit = `__DEEP_${String(day.date)}__`;
    let text = JSON.stringify(json);
    for (const day of hit) text = text.replace(`"__DEEP_${String(day.date)}__"`, deepArrayText(20_000));
    return text;
  };
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await front?.close();
});

function rowOf(sheet: string, key: string, value: string): Record<string, unknown> | undefined {
  const [headers = [], ...rows] = sheetTable(stack, sheet);
  const row = rows.find((r) => r[headers.indexOf(key)] === value);
  return row ? Object.fromEntries(headers.map((h, i) => [String(h), row[i]])) : undefined;
}

function lastLogMessage(): string {
  const [headers = [], ...rows] = sheetTable(stack, 'Sync log');
  return String(rows[rows.length - 1]![headers.indexOf('message')]);
}

async function sidebarState(): Promise<{
  skipped?: { days?: Array<{ day: string }> } | null;
  tieout?: { failedDays: string[] } | null;
}> {
  const r = await stack.runtime.run('getSidebarState', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return r.value as never;
}

describe('two Daily P&L days nested 20,000 deep', () => {
  it('the run ends ok, every other day equals the truth, the two are named in the Sync log, the sidebar and Checks, and no row stands for them', async () => {
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);
    expect(await compareWithTruth(stack)).toEqual({
      mismatches: [],
      missing: [`Daily P&L:${old}`, `Daily P&L:${recent}`],
      unexpected: [],
      duplicates: [],
    });
    expect(lastLogMessage()).toContain(`2 days of Daily P&L (${old}, ${recent})`);
    const state = await sidebarState();
    expect(state.skipped?.days?.map((d) => d.day)).toEqual([old, recent]);
    expect(rowOf('Checks', 'period', recent)?.result).toBe('✗');
    expect(String(rowOf('Checks', 'period', recent)?.note)).toContain('its Daily P&L row');
    expect(state.tieout?.failedDays).toContain(recent);
    // The month of the old day says it lacks a day: it is not summed as if the day had no figures.
    expect(String(rowOf('Monthly P&L', 'month', old.slice(0, 7))?.status)).toMatch(/^partial: \d+ of \d+ days$/);
  }, 240_000);

  it('once the service serves them whole, the next run writes both (the old one asked for again): the sheets equal the truth and nothing is skipped', async () => {
    front.rewrite = () => null;
    await stack.advanceClocks(HOUR_MS);
    const asked = front.seen.length;
    const end = await runUntilSettled(stack);
    expect(`${end.outcome}: ${end.message}`).toMatch(/^ok: /);
    // The old day is asked for again: on its own, or within the range the schedule fetches again from
    // the earliest ✗ day its last tie-out found (refetch-days.ts).
    const covering = front.seen
      .slice(asked)
      .map((r) => /start_date=(\d{4}-\d{2}-\d{2})&end_date=(\d{4}-\d{2}-\d{2})/.exec(r.path))
      .filter((m): m is RegExpExecArray => m !== null && m[1] <= old && old <= m[2]);
    expect(covering.length).toBeGreaterThanOrEqual(1);
    expect(await compareWithTruth(stack)).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
    expect((await sidebarState()).skipped ?? null).toBeNull();
    expect(rowOf('Checks', 'period', recent)?.result).toBe('✓');
  }, 240_000);
});
