/**
 * The Checks sheet is written row by row: an hourly run rewrites only the rows whose content or
 * place changed, and the scope line that carries the check's time. A row's checked_at cell is
 * overwritten with a marker before the run (a time before any check, which a row may hold), so a
 * row the run wrote shows a time again and a row it left keeps the marker. After every run the sheet must equal a
 * tie-out made from scratch: the Checks sheet deleted and Checks → Run (tieOutNow) writing it anew
 * from the same emulator, checked_at and the scope line's words on how the Orders side was taken
 * aside. A Pro store, so the plan window slides with the days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { startStack, type Stack } from '../../dev/harness/index';
import { checksColumn, checksModel, comparable, dayBesideTruth, fromScratch } from './checks-support';
import { advanceToStoreHour, deleteSheetRow, sheetTable, sortSheet, syncUntilCaughtUp } from './sync-support';

type Json = Record<string, unknown>;
type Table = unknown[][];
const HOUR_MS = 3_600_000;
/** A date-time long before any check (2000-01-01 12:00 as a serial): a whole read of the rows takes it as a time a row may hold. */
const MARK = 36_526.5;

let stack: Stack;
let timeZone = '';

beforeAll(async () => {
  stack = await startStack({ orders: 400, seed: 41, plan: 'pro' });
  await stack.connect();
  await syncUntilCaughtUp(stack);
  timeZone = String(((await stack.truth('store')) as { store: Json }).store.timezone);
}, 180_000);

afterAll(async () => {
  await stack?.close();
});

const column = (header: string): number => checksColumn(stack, header);
const cents = (v: unknown): number => Math.round(Number(v) * 100);
/** 2099-01-01 as a serial: a checked_at no check could have written. */
const LATER = Date.UTC(2099, 0, 1) / 86_400_000 + 25_569;

/** Every Checks data row's checked_at cell overwritten with the marker. */
function markCheckedAt(): void {
  const model = checksModel(stack);
  const at = column('checked_at') + 1;
  for (let row = 2; row <= model.lastRow(); row++) model.write(row, at, { value: MARK });
  marked = sheetTable(stack, 'Checks')[1][at - 1];
}

/** The marker as the sheet's export shows it (a date-time cell as its instant). */
let marked: unknown;

/** The data rows a run wrote (1-based sheet rows): those whose checked_at no longer holds the marker. */
function writtenRows(): number[] {
  const at = column('checked_at');
  return sheetTable(stack, 'Checks')
    .slice(1)
    .flatMap((r, i) => (r[at] === marked ? [] : [i + 2]));
}

async function hourlyRun(): Promise<ExecutionResult> {
  await stack.advanceClocks(HOUR_MS);
  const r = await stack.runtime.run('onScheduledSync', []);
  expect(r.ok, r.error?.message).toBe(true);
  expect((r.value as { done?: boolean }).done).toBe(true);
  return r;
}

const placedDay = (o: Json): string => new Date(String(o.created_at)).toLocaleDateString('en-CA', { timeZone });

/** The rows (1-based) whose content the sheet did not hold in `before`, and the scope line. */
function newContent(before: Table): number[] {
  const was = new Set(comparable(before));
  const after = sheetTable(stack, 'Checks');
  return after.slice(1).flatMap((r, i) => (r[1] === 'scope' || !was.has(comparable([after[0], r])[0]) ? [i + 2] : []));
}

describe('an hourly run rewrites only the Checks rows that changed', () => {
  it('1 % of the orders changed on a few days: their days, their months and the scope line, nothing else', async () => {
    const before = sheetTable(stack, 'Checks');
    const periods = before.slice(1).map((r) => String(r[0]));
    const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
      (o) => o.status !== 'cancelled' && periods.includes(placedDay(o)),
    );
    // Four orders (1 % of 400), far apart in the range.
    const changed = [0.1, 0.35, 0.6, 0.85].map((f) => orders[Math.floor(f * orders.length)]);
    for (const o of changed) await stack.control(`orders/${String(o.id)}/change`, { kind: 'cost_correction' });
    markCheckedAt();
    const run = await hourlyRun();

    const after = sheetTable(stack, 'Checks');
    const rows = newContent(before);
    expect(writtenRows()).toEqual(rows);
    // What changed: the changed orders' days (a correction may move no compared figure), their months, the scope line.
    const differ = rows.map((row) => after[row - 1]);
    const days = [...new Set(changed.map(placedDay))];
    const differDays = differ.filter((r) => r[1] === 'day').map((r) => String(r[0]));
    expect(differDays.length, 'most changed days moved a figure').toBeGreaterThanOrEqual(days.length - 1);
    expect(days).toEqual(expect.arrayContaining(differDays));
    expect(differ.filter((r) => r[1] === 'month').map((r) => String(r[0]))).toEqual([
      ...new Set(differDays.map((d) => d.slice(0, 7))),
    ]);
    expect(differ.filter((r) => r[1] !== 'day' && r[1] !== 'month').map((r) => r[1])).toEqual(['scope']);
    // The runtime's counter: the whole run wrote fewer cells than the Checks sheet alone holds.
    expect(run.counts.cellsWritten).toBeLessThan((after.length - 1) * after[0].length);
    expect(comparable(after)).toEqual(comparable(await fromScratch(stack)));
  }, 120_000);

  it('a tie-out that finds every row as the sheet holds it writes no Checks row (Checks → Run twice)', async () => {
    const first = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(first.ok, first.error?.message).toBe(true);
    markCheckedAt();
    await stack.advanceClocks(60_000);
    const again = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(again.ok, again.error?.message).toBe(true);
    expect(writtenRows()).toEqual([]);
  }, 60_000);
});

/** One order placed on a day after the sheet's first rows gets a cost correction (a tie-out is then due). */
async function changeOneOrder(k: number): Promise<void> {
  const periods = sheetTable(stack, 'Checks')
    .slice(1)
    .map((r) => String(r[0]));
  const late = periods.slice(periods.length / 2);
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data.filter(
    (o) => o.status !== 'cancelled' && late.includes(placedDay(o)),
  );
  await stack.control(`orders/${String(orders[(k * 7) % orders.length].id)}/change`, { kind: 'cost_correction' });
}

describe('a Checks sheet edited by hand is put back by the next hourly run that ties out', () => {
  it('sorted (Data → Sort range, by period, Z → A)', async () => {
    sortSheet(stack, 'Checks', 'period', true);
    await changeOneOrder(1);
    await hourlyRun();
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(comparable(await fromScratch(stack)));
  }, 120_000);

  it('a row deleted: the rows from it down are written again, those above it are left', async () => {
    const before = sheetTable(stack, 'Checks');
    markCheckedAt();
    deleteSheetRow(stack, 'Checks', 6);
    await changeOneOrder(2);
    await hourlyRun();
    const rows = sheetTable(stack, 'Checks').length;
    const fromRow6 = Array.from({ length: rows - 6 }, (_, i) => i + 6);
    expect(writtenRows()).toEqual([...new Set([...newContent(before), ...fromRow6])].sort((a, b) => a - b));
    expect(writtenRows()[0]).toBe(6);
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(comparable(await fromScratch(stack)));
  }, 120_000);

  it("a row's period cleared: that row is written again, with the rows whose content changed", async () => {
    const before = sheetTable(stack, 'Checks');
    markCheckedAt();
    checksModel(stack).write(9, column('period') + 1, {});
    await changeOneOrder(3);
    await hourlyRun();
    expect(writtenRows()).toEqual([...new Set([9, ...newContent(before)])].sort((a, b) => a - b));
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(comparable(await fromScratch(stack)));
  }, 120_000);

  it('a figure cell cleared: Checks → Run reads the rows whole and puts back that row, with the scope line', async () => {
    const held = comparable(sheetTable(stack, 'Checks'));
    markCheckedAt();
    // The first figure's Orders sum (column E) of row 12: no period, kind or digest shows it.
    checksModel(stack).write(12, 5, {});
    expect(comparable(sheetTable(stack, 'Checks'))).not.toEqual(held);
    const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(r.ok, r.error?.message).toBe(true);
    expect(writtenRows()).toEqual([12, held.length + 1]);
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(held);
  }, 60_000);
});

describe('hand edits no digest sees', () => {
  it('a checked_at typed later than any check, or cleared, is put back by Checks → Run: no row looks proven later than it was', async () => {
    const first = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(first.ok, first.error?.message).toBe(true);
    checksModel(stack).write(5, column('checked_at') + 1, { value: LATER });
    checksModel(stack).write(8, column('checked_at') + 1, {});
    await stack.advanceClocks(60_000);
    const again = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(again.ok, again.error?.message).toBe(true);
    // A date-time (the export shows one as its instant), never after the check that wrote it.
    for (const row of [5, 8]) {
      const at = Date.parse(String(sheetTable(stack, 'Checks')[row - 1][column('checked_at')]));
      expect(at, `row ${row}`).toBeLessThanOrEqual(stack.runtime.clock.now());
    }
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(comparable(await fromScratch(stack)));
  }, 60_000);

  it('a ✓ row typed over with ✗ and a figure typed over: the scheduled run that reads Orders whole, within a day, puts them back as the API says', async () => {
    // Checks → Run reads the Orders sheet whole; the next scheduled whole read is a day later.
    const asked = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
    expect(asked.ok, asked.error?.message).toBe(true);
    const wholeAt = stack.runtime.clock.now();
    // Past the store's midnight first: the new day moves every row, and the edit comes after.
    await advanceToStoreHour(stack, 0);
    await syncUntilCaughtUp(stack);
    const table = sheetTable(stack, 'Checks');
    const at = table.findIndex((r, i) => i > 10 && r[column('kind')] === 'day' && r[column('result')] === '✓');
    const day = String(table[at][column('period')]);
    checksModel(stack).write(at + 1, column('result') + 1, { value: '✗' });
    checksModel(stack).write(at + 1, column('gross_revenue_pnl') + 1, { value: 1 });
    await stack.advanceClocks(wholeAt + 24 * HOUR_MS + 60_000 - stack.runtime.clock.now());
    await changeOneOrder(5);
    await syncUntilCaughtUp(stack);
    const { row, truth } = await dayBesideTruth(stack, day);
    expect(row.result, day).toBe('✓');
    expect(cents(row.gross_revenue_pnl), day).toBe(cents(truth.gross_revenue));
    expect(comparable(sheetTable(stack, 'Checks'))).toEqual(comparable(await fromScratch(stack)));
  }, 180_000);
});

describe('the plan window slides a day at a time', () => {
  it('a new day at the end, the first days dropped: no stale row, every row where a tie-out from scratch puts it', async () => {
    const firstBefore = sheetTable(stack, 'Checks')
      .slice(1)
      .find((r) => r[1] === 'day')?.[0];
    for (let day = 1; day <= 2; day++) {
      await stack.advanceClocks(24 * HOUR_MS);
      await syncUntilCaughtUp(stack);
      const store = (await stack.truth('store')) as Json;
      const after = sheetTable(stack, 'Checks');
      const days = after
        .slice(1)
        .filter((r) => r[1] === 'day')
        .map((r) => String(r[0]));
      expect(days[0] >= String(store.history_available_from), `day ${day}: ${days[0]}`).toBe(true);
      expect(days[days.length - 1]).toBe(String(store.today));
      expect(new Set(days).size).toBe(days.length);
      // The scope line is the last row: nothing below it.
      expect(after[after.length - 1][1]).toBe('scope');
      expect(comparable(after)).toEqual(comparable(await fromScratch(stack)));
      if (day === 2) expect(days[0] > String(firstBefore), 'the first day dropped').toBe(true);
    }
  }, 180_000);
});

describe('an hourly run ended at any of its Sheets writes', () => {
  it('the next run puts the Checks rows it did not send where a tie-out from scratch puts them', async () => {
    const WRITE = 'Sheets.Spreadsheets.Values.batchUpdate';
    for (let nth = 1; nth <= 3; nth++) {
      await changeOneOrder(10 + nth);
      await stack.advanceClocks(HOUR_MS);
      const killed = await stack.runtime.run('onScheduledSync', [], { killAtMethodCall: { method: WRITE, nth } });
      if (!killed.timedOut) break; // the run made fewer writes: every point has been tried
      await hourlyRun();
      expect(comparable(sheetTable(stack, 'Checks')), `ended at write ${nth}`).toEqual(
        comparable(await fromScratch(stack)),
      );
    }
  }, 240_000);
});
