import { describe, expect, it } from 'vitest';
import { instantToSerial } from '../../src/server/platform/calendar';
import { KeyIndex } from '../../src/server/sheets/key-index';
import { columnWidthPx, DEFAULT_COLUMN_PX, setUpRequests } from '../../src/server/sheets/layout';
import { DAILY, LINE_ITEMS, ORDERS, PRODUCTS, SYNC_LOG, type TableSchema } from '../../src/server/sheets/schema';
import { planGoneMarks } from '../../src/server/sync/gone-marks';

const TZ = 'UTC';
const ORDER_RULES = { keyPrefix: ORDERS.keyPrefix };

describe('the key index leaves the rows a user typed below the data alone', () => {
  it('new rows go after the last row with ANY content, not after the last id', () => {
    // Rows 2–3 synced, row 4 a totals row (nothing in the index columns), row 5 empty, row 6 a note.
    const index = new KeyIndex(
      [
        ['ord_a', 'active'],
        ['ord_b', 'active'],
        ['', ''],
        ['', ''],
        ['', ''],
      ],
      TZ,
      ORDER_RULES,
    );
    expect(index.nextRow).toBe(7);
    expect(index.put('ord_c', ['ord_c', 'active'])).toEqual({ row: 7, inserted: true });
    expect(index.put('ord_a', ['ord_a', 'cancelled'])).toEqual({ row: 2, inserted: false });
    expect(index.put('ord_d', ['ord_d', 'active'])).toEqual({ row: 8, inserted: true });
  });

  it('a note in the id column is not an order: not indexed, not counted, never marked gone', () => {
    const old = instantToSerial(Date.parse('2024-01-01T00:00:00Z'), TZ);
    const index = new KeyIndex(
      [
        ['ord_a', 'active', 45000, '', old],
        ['Checked by Ana', '', '', '', ''],
      ],
      TZ,
      ORDER_RULES,
    );
    expect(index.size).toBe(1);
    expect(index.get('Checked by Ana')).toBeUndefined();
    expect(index.nextRow).toBe(4);
    const marks = planGoneMarks(index, {
      passStartedAt: Date.parse('2024-06-01T00:00:00Z'),
      historyAvailableFrom: null,
      now: Date.parse('2024-06-01T01:00:00Z'),
      spreadsheetTimeZone: TZ,
    });
    expect(marks.writes.map((w) => w.row)).toEqual([2]);
  });

  it('Daily P&L: text in the date column is a note, a date serial or YYYY-MM-DD text is a day', () => {
    const index = new KeyIndex([[45306], ['2024-01-16'], ['Total'], ['']], TZ, { keyIsDate: true });
    expect([...index.entries()].map(([k, e]) => [k, e.row])).toEqual([
      ['2024-01-15', 2],
      ['2024-01-16', 3],
    ]);
    expect(index.nextRow).toBe(6);
  });

  it('without a prefix rule (Variants) any id is a key, as before', () => {
    const index = new KeyIndex([['var_1'], ['anything']], TZ);
    expect(index.size).toBe(2);
    expect(index.nextRow).toBe(4);
  });
});

describe('managed sheet layout at creation', () => {
  it('date-time columns fit "yyyy-mm-dd hh:mm:ss", amounts a currency figure, no column narrower than Sheets\' default', () => {
    const at = (header: string) => columnWidthPx(ORDERS.columns.find((c) => c.header === header)!);
    // About 7 px per character of the default font, plus padding.
    expect(at('created_at')).toBeGreaterThanOrEqual('yyyy-mm-dd hh:mm:ss'.length * 7 + 10);
    expect(at('net_profit')).toBeGreaterThanOrEqual('-1,234,567.89 USD'.length * 7);
    for (const c of ORDERS.columns) expect(columnWidthPx(c)).toBeGreaterThanOrEqual(DEFAULT_COLUMN_PX);
  });

  it("ids, gids, names and URLs get columns wide enough to read the emulator's values", () => {
    const width = (schema: TableSchema, header: string) =>
      columnWidthPx(schema.columns.find((c) => c.header === header)!);
    const fits = (text: string) => text.length * 7 + 10;
    expect(width(ORDERS, 'id')).toBeGreaterThanOrEqual(fits('ord_01kcb965hnc8hxjp'));
    expect(width(ORDERS, 'customer_ref')).toBeGreaterThanOrEqual(fits('cus_4n1eq9mtrg5y8b'));
    expect(width(ORDERS, 'external_order_gid')).toBeGreaterThanOrEqual(fits('gid://shopify/Order/5200000024'));
    expect(width(ORDERS, 'landing_page')).toBeGreaterThanOrEqual(fits('https://l.facebook.com/pages/sale'));
    expect(width(PRODUCTS, 'name')).toBeGreaterThanOrEqual(fits('Organic Backpack 52'));
    expect(width(PRODUCTS, 'url')).toBeGreaterThanOrEqual(fits('https://northwind-outfitters.myshopify.com/'));
    expect(width(ORDERS, 'currency')).toBe(DEFAULT_COLUMN_PX);
  });

  it('one request sets the column count (only when it differs) and widths that cover every column exactly once', () => {
    for (const schema of [ORDERS, DAILY, SYNC_LOG]) {
      const requests = setUpRequests(7, schema, 26);
      expect(requests[0].updateSheetProperties?.properties?.gridProperties?.columnCount).toBe(schema.columns.length);
      const widths: number[] = [];
      for (const r of requests.slice(1)) {
        const d = r.updateDimensionProperties!;
        expect(d.range).toMatchObject({ sheetId: 7, dimension: 'COLUMNS' });
        expect(d.fields).toBe('pixelSize');
        for (let c = d.range!.startIndex!; c < d.range!.endIndex!; c++) widths[c] = d.properties!.pixelSize!;
      }
      expect(widths).toEqual(schema.columns.map(columnWidthPx));
    }
    expect(
      setUpRequests(7, SYNC_LOG, SYNC_LOG.columns.length).every((r) => r.updateSheetProperties === undefined),
    ).toBe(true);
  });
});

describe('KeyIndex read without trailing empty rows', () => {
  it("asks for the sheet's last row with content once, at the first new row, and puts new rows below it", () => {
    let asked = 0;
    // Keys end at row 3; a user's totals row (outside the key columns) sits at row 9.
    const index = new KeyIndex([['ord_a'], ['ord_b']], TZ, ORDER_RULES, 2, () => {
      asked++;
      return 9;
    });
    expect(index.put('ord_a', ['ord_a'])).toEqual({ row: 2, inserted: false });
    expect(asked).toBe(0);
    expect(index.put('ord_c', ['ord_c'])).toEqual({ row: 10, inserted: true });
    expect(index.put('ord_d', ['ord_d'])).toEqual({ row: 11, inserted: true });
    expect(asked).toBe(1);
  });

  it('never goes above the rows it read, whatever the last row says', () => {
    const index = new KeyIndex([['ord_a'], ['ord_b'], ['note']], TZ, ORDER_RULES, 2, () => 1);
    expect(index.put('ord_c', ['ord_c']).row).toBe(5);
  });
});

describe('a Line items index read from order_id alone (LINE_ITEMS.parentKey)', () => {
  const LINE_RULES = { keyPrefix: LINE_ITEMS.keyPrefix, parent: LINE_ITEMS.parentKey };
  // The start read: order_id only (the id column reads empty). Row 4: the user cleared its order_id.
  const start = (): KeyIndex =>
    new KeyIndex(
      [
        ['', 'ord_a'],
        ['', 'ord_b'],
        ['', ''],
        ['', 'ord_a'],
      ],
      TZ,
      LINE_RULES,
    );

  it("counts every row with an order's id before reading a line item id, and reads an order's rows only when asked", () => {
    const index = start();
    expect(index.size).toBe(3);
    // The first read also takes the row without an order key and the grid's rows below the last (to row 7).
    const taken = index.takePending(['ord_a'], 7);
    expect([...taken].sort((a, b) => a[0] - b[0])).toEqual([
      [2, 'ord_a'],
      [4, ''],
      [5, 'ord_a'],
      [6, ''],
      [7, ''],
    ]);
    expect(index.takePending(['ord_a'], 7).size).toBe(0);
    expect(index.size).toBe(1);
  });

  it('a row whose order_id the user cleared keeps its line item: found by id, never written again below', () => {
    const index = start();
    const read: Record<number, unknown[]> = {
      2: ['li_1', 'ord_a', 'active'],
      4: ['li_2', '', 'active'],
      5: ['li_3', 'ord_a', 'active'],
    };
    for (const [row] of index.takePending(['ord_a'], 5)) index.adopt(row, read[row] ?? []);
    expect(index.get('li_2')?.row).toBe(4);
    expect(index.put('li_2', ['li_2', 'ord_c', 'active'])).toEqual({ row: 4, inserted: false });
    expect(index.put('li_9', ['li_9', 'ord_a', 'active'])).toEqual({ row: 6, inserted: true });
    expect(index.size).toBe(5);
  });
});
