/**
 * The add-on's side of Google's Sheets API quota (60 reads and 60 writes a minute per user):
 * requests are paced under it, a refusal is waited out and retried, a pending SpreadsheetApp
 * change is flushed before the request that may depend on it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Requests = typeof import('../../src/server/sheets/sheets-requests');
const QUOTA_ERROR =
  "API call to sheets.spreadsheets.values.batchUpdate failed with error: Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:1'.";

let flushes = 0;
let slept: number[] = [];

async function fresh(): Promise<Requests> {
  vi.resetModules();
  return import('../../src/server/sheets/sheets-requests');
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 2, 2, 12));
  flushes = 0;
  slept = [];
  Object.assign(globalThis, {
    SpreadsheetApp: { flush: () => void flushes++ },
    Utilities: {
      sleep: (ms: number) => {
        slept.push(ms);
        vi.setSystemTime(Date.now() + ms);
      },
    },
  });
});

afterEach(() => {
  vi.useRealTimers();
  // Suites share their worker's globals: leave none of the stand-ins behind.
  for (const name of ['SpreadsheetApp', 'Utilities']) delete (globalThis as Record<string, unknown>)[name];
});

describe('Sheets API pacing', () => {
  it('never sends more than PACED_PER_MINUTE writes in any 60 s, however fast the pages come', async () => {
    const r = await fresh();
    const sentAt: number[] = [];
    for (let i = 0; i < 200; i++) {
      r.sheetsRequest('write', () => sentAt.push(Date.now()));
      vi.setSystemTime(Date.now() + 200); // a page every 0.2 s: 300 a minute unpaced
    }
    for (let i = 0; i < sentAt.length; i++) {
      const inWindow = sentAt.filter((t) => t > sentAt[i] - 60_000 && t <= sentAt[i]).length;
      expect(inWindow).toBeLessThanOrEqual(r.PACED_PER_MINUTE);
    }
    expect(r.PACED_PER_MINUTE).toBeLessThan(60);
    expect(r.sheetsPacing.pacedWaits).toBeGreaterThan(0);
    // Reads have their own allowance: not slowed by the writes.
    const before = slept.length;
    r.sheetsRequest('read', () => 1);
    expect(slept.length).toBe(before);
  });

  it('waits out a 429 and sends again; the caller never sees it', async () => {
    const r = await fresh();
    let calls = 0;
    const value = r.sheetsRequest('write', () => {
      calls++;
      if (calls < 3) throw new Error(QUOTA_ERROR);
      return 'written';
    });
    expect(value).toBe('written');
    expect(r.sheetsPacing.refusals).toBe(2);
    expect(slept.every((ms) => ms >= 20_000)).toBe(true);
  });

  it('when the execution cannot afford the wait, stops with SheetsQuotaPause (a partial run), not the raw error', async () => {
    const r = await fresh();
    r.setSheetsWaitBudget(() => false);
    expect(() =>
      r.sheetsRequest('write', () => {
        throw new Error(QUOTA_ERROR);
      }),
    ).toThrow(r.SheetsQuotaPause);
  });

  it('other errors pass through untouched', async () => {
    const r = await fresh();
    expect(() =>
      r.sheetsRequest('write', () => {
        throw new Error('Range (Orders!A1001:B1001) exceeds grid limits. Max rows: 1000, max columns: 26');
      }),
    ).toThrow(/exceeds grid limits/);
    expect(r.sheetsPacing.refusals).toBe(0);
  });

  it('flushes pending SpreadsheetApp changes once, before the next request', async () => {
    const r = await fresh();
    r.sheetsRequest('read', () => 1);
    expect(flushes).toBe(0);
    r.noteSpreadsheetChange();
    r.sheetsRequest('write', () => 1);
    r.sheetsRequest('write', () => 1);
    expect(flushes).toBe(1);
  });
});
