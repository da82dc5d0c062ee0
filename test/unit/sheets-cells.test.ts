import { describe, expect, it } from 'vitest';
import {
  CELL_TEXT_LIMIT,
  numberCell,
  safeText,
  textCell,
  timestampCell,
  TRUNCATION_MARK,
} from '../../src/server/sheets/cells';
import { dateToSerial, instantToLocalDate, instantToSerial, serialToInstant } from '../../src/server/platform/calendar';
import { a1Range, columnLetter } from '../../src/server/sheets/a1';
import { buildRow, numberFormatFor, toCell } from '../../src/server/sheets/rows';
import { displayValue } from '../../dev/gas-runtime/spreadsheet/number-format';
import { LINE_ITEMS, ORDERS, PRODUCTS } from '../../src/server/sheets/schema';

describe('null becomes an empty cell, never 0 (unknown cost is not free cost)', () => {
  it('numbers: null and undefined are empty, 0 stays 0', () => {
    expect(numberCell(null)).toBe('');
    expect(numberCell(undefined)).toBe('');
    expect(numberCell(0)).toBe(0);
    expect(numberCell(-12.5)).toBe(-12.5);
  });
  it('a product with cogs null has empty cogs columns', () => {
    const row = buildRow(PRODUCTS, { id: 'prd_1', cogs: null }, {}, 'UTC');
    const at = (h: string) => row[PRODUCTS.columns.findIndex((c) => c.header === h)];
    expect(at('cogs_unit_cost')).toBe('');
    expect(at('cogs_cost_is_tiered')).toBe('');
  });
  it('a line item total of 0 is kept as 0 (not price × quantity)', () => {
    const row = buildRow(LINE_ITEMS, { id: 'li_1', price: 20, quantity: 2, total: 0 }, {}, 'UTC');
    expect(row[LINE_ITEMS.columns.findIndex((c) => c.header === 'total')]).toBe(0);
  });
});

describe('text that looks like a formula is kept as text', () => {
  it.each(['=IMPORTXML("http://x","//a")', '+1+2', '-cmd', '@SUM(A1)'])(
    '%s is written verbatim as a string',
    (text) => {
      expect(textCell(text)).toBe(text);
    },
  );
});

describe('text over 50,000 characters is truncated visibly', () => {
  it('keeps short text, cuts long text to the cell limit ending with the mark', () => {
    expect(safeText('abc')).toBe('abc');
    const long = 'x'.repeat(60_000);
    const cut = safeText(long);
    expect(cut.length).toBe(CELL_TEXT_LIMIT);
    expect(cut.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(cut.startsWith('x'.repeat(1000))).toBe(true);
  });
  it('never cuts a character outside the Basic Multilingual Plane in half (no lone surrogate is sent)', () => {
    const keep = CELL_TEXT_LIMIT - TRUNCATION_MARK.length;
    // An emoji (two UTF-16 units) straddling the cut: the cut falls between its two halves.
    const long = 'a'.repeat(keep - 1) + '😀'.repeat(10_000);
    const cut = safeText(long);
    expect(cut.length).toBeLessThanOrEqual(CELL_TEXT_LIMIT);
    expect(cut.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut)).toBe(false);
    expect(cut.startsWith('a'.repeat(keep - 1))).toBe(true);
  });
  it('text of exactly 50,000 characters is not touched', () => {
    const exact = 'y'.repeat(CELL_TEXT_LIMIT);
    expect(safeText(exact)).toBe(exact);
  });
});

describe('dates become serial numbers', () => {
  it('an instant becomes the serial of its wall time in the spreadsheet zone', () => {
    // 2024-01-15 is serial 45306; 12:00Z is 07:00 in New York (UTC−5 in January).
    expect(instantToSerial(Date.parse('2024-01-15T12:00:00Z'), 'America/New_York')).toBeCloseTo(45306 + 7 / 24, 9);
    expect(instantToSerial(Date.parse('2024-07-15T12:00:00Z'), 'America/New_York')).toBeCloseTo(45488 + 8 / 24, 9);
    expect(timestampCell('2024-01-15T12:00:00Z', 'UTC')).toBeCloseTo(45306.5, 9);
  });
  it('serialToInstant inverts instantToSerial', () => {
    const t = Date.parse('2025-03-09T06:59:59.250Z');
    expect(serialToInstant(instantToSerial(t, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe(t);
  });
  it("the placement date is the calendar day in the store's zone", () => {
    expect(instantToLocalDate(Date.parse('2024-01-15T03:00:00Z'), 'America/New_York')).toBe('2024-01-14');
    expect(instantToLocalDate(Date.parse('2024-01-15T03:00:00Z'), 'Europe/Berlin')).toBe('2024-01-15');
    expect(dateToSerial('2024-01-14')).toBe(45305);
  });
  it('unparseable timestamps are kept as text, not dropped', () => {
    expect(timestampCell('not a date', 'UTC')).toBe('not a date');
    expect(timestampCell(null, 'UTC')).toBe('');
  });
});

describe('headers are the API field names, nested objects flattened', () => {
  it('orders flatten economics and attribution by field name', () => {
    const headers = ORDERS.columns.map((c) => c.header);
    for (const h of [
      'id',
      'net_profit',
      'utm_source',
      'ad_spend_allocated',
      'cogs_coverage_pct',
      'status',
      'placed_date',
      'synced_at',
    ]) {
      expect(headers).toContain(h);
    }
    expect(new Set(headers).size).toBe(headers.length);
  });
  it('product cost fields are prefixed cogs_', () => {
    const headers = PRODUCTS.columns.map((c) => c.header);
    expect(headers).toEqual(expect.arrayContaining(['cogs_unit_cost', 'cogs_handling_cost', 'cogs_cost_is_tiered']));
  });
  it('estimate columns carry a note (spec 2.3 rule 7)', () => {
    for (const h of ['ad_spend_allocated', 'cogs_coverage_pct']) {
      expect(ORDERS.columns.find((c) => c.header === h)?.note).toMatch(/estimate/i);
    }
  });
  it('nested values land in their flattened column', () => {
    const row = buildRow(
      ORDERS,
      { id: 'ord_1', economics: { net_profit: 12.34 }, attribution: { utm_source: null } },
      {},
      'UTC',
    );
    expect(row[ORDERS.columns.findIndex((c) => c.header === 'net_profit')]).toBe(12.34);
    expect(row[ORDERS.columns.findIndex((c) => c.header === 'utm_source')]).toBe('');
  });
});

describe('A1 ranges and formats', () => {
  it('quotes sheet names and spells columns', () => {
    expect(columnLetter(1)).toBe('A');
    expect(columnLetter(26)).toBe('Z');
    expect(columnLetter(27)).toBe('AA');
    expect(columnLetter(53)).toBe('BA');
    expect(a1Range('Line items', 2, 1, 2, 17)).toBe("'Line items'!A2:Q2");
    expect(a1Range("Bob's", 3, 2, 4, 3)).toBe("'Bob''s'!B3:C4");
  });
  it("percentages from the API (points) are held as Sheets' fraction and shown by a bare %", () => {
    expect(numberFormatFor('pct', null)).toBe('0.00%');
    expect(numberFormatFor('amount', 'EUR')).toContain('EUR');
    // As Sheets shows them: a quoted or escaped % is literal, only a bare % multiplies by 100.
    expect(toCell(55.08, 'pct', 'UTC')).toBe(0.5508);
    expect(displayValue(toCell(55.08, 'pct', 'UTC') as number, numberFormatFor('pct', null)!)).toBe('55.08%');
    expect(displayValue(55.08, '0.00"%"')).toBe('55.08%');
    expect(displayValue(100, '0.00\\%')).toBe('100.00%');
    expect(displayValue(0.5508, '0.00%')).toBe('55.08%');
  });
  it("USD amounts show as Sheets' Currency format does ($1,234.50); other currencies keep their code", () => {
    expect(displayValue(1234.5, numberFormatFor('amount', 'USD')!)).toBe('$1,234.50');
    expect(displayValue(-5, numberFormatFor('amount', 'USD')!)).toBe('-$5.00');
    expect(displayValue(1234.5, numberFormatFor('amount', 'CAD')!)).toBe('1,234.50 CAD');
  });
});
