/** Where the column tags put a layout's columns (column-tags.ts), and the set-up's tag requests. */
import { describe, expect, it } from 'vitest';
import {
  columnTagRequests,
  followsColumnTags,
  taggedHeaderRow,
  taggedLayout,
} from '../../src/server/sheets/column-tags';
import { findHeaderProblem } from '../../src/server/sheets/header-check';
import { DAILY, MONTHLY, PRODUCTS, SYNC_LOG, VARIANTS } from '../../src/server/sheets/schema';

const layout = {
  columns: ['order_number', 'net_profit', 'tax', 'id'],
  retired: ['tax'],
  cleared: { tax: '2026-11-01' },
};
const tag = (id: number, header: string, column: number) => ({ id, header, column });

describe('taggedLayout', () => {
  it("places each column where its tag is now; an untagged column between them is the user's", () => {
    const tags = [tag(1, 'order_number', 1), tag(2, 'net_profit', 0), tag(3, 'tax', 3), tag(4, 'id', 4)];
    expect(taggedLayout(layout, tags)).toEqual({
      layout: {
        columns: ['net_profit', 'order_number', null, 'tax', 'id'],
        retired: ['tax'],
        cleared: { tax: '2026-11-01' },
      },
      lost: [],
    });
  });

  it('a header tagged twice (a set-up cut short and redone) is where its newest tag is', () => {
    const tags = [
      tag(9, 'order_number', 0),
      tag(2, 'order_number', 5),
      tag(3, 'net_profit', 1),
      tag(4, 'tax', 2),
      tag(5, 'id', 3),
    ];
    expect(taggedLayout(layout, tags).layout.columns).toEqual(['order_number', 'net_profit', 'tax', 'id']);
  });

  it('a deleted synced column is lost; a deleted retired one is simply gone', () => {
    const got = taggedLayout(layout, [tag(1, 'order_number', 0), tag(2, 'net_profit', 1)]);
    expect(got.lost).toEqual(['id']);
    expect(got.layout.retired).toEqual([]);
    expect(got.layout.cleared).toEqual({});
  });

  it('ignores a tag of a header the layout does not place', () => {
    const tags = [
      tag(1, 'order_number', 0),
      tag(2, 'net_profit', 1),
      tag(3, 'tax', 2),
      tag(4, 'id', 3),
      tag(5, 'utm_source', 4),
    ];
    expect(taggedLayout(layout, tags).layout.columns).toEqual(['order_number', 'net_profit', 'tax', 'id']);
  });
});

describe('columnTagRequests', () => {
  it('tags the given columns with their key, on the whole column, visible to the document', () => {
    expect(columnTagRequests(7, ['id', null, 'tax'], [1, 2, 3])).toEqual([
      {
        createDeveloperMetadata: {
          developerMetadata: {
            metadataKey: 'merchant_analytics_column',
            metadataValue: 'id',
            location: { dimensionRange: { sheetId: 7, dimension: 'COLUMNS', startIndex: 0, endIndex: 1 } },
            visibility: 'DOCUMENT',
          },
        },
      },
      {
        createDeveloperMetadata: {
          developerMetadata: {
            metadataKey: 'merchant_analytics_column',
            metadataValue: 'tax',
            location: { dimensionRange: { sheetId: 7, dimension: 'COLUMNS', startIndex: 2, endIndex: 3 } },
            visibility: 'DOCUMENT',
          },
        },
      },
    ]);
  });
});

describe('the P&L, Products and Variants headings, read by their tags', () => {
  const keys = DAILY.columns.map((c) => c.header);
  const tags = keys.map((header, column) => tag(column + 1, header, column));

  it('are tagged like Orders; the Sync log is not', () => {
    for (const table of [DAILY, MONTHLY, PRODUCTS, VARIANTS]) expect(followsColumnTags(table)).toBe(true);
    expect(followsColumnTags(SYNC_LOG)).toBe(false);
  });

  it("a renamed heading reads as its key: the header check passes, the user's row is not changed", () => {
    const row = keys.map((h) => (h === 'net_revenue' ? 'Net revenue' : h));
    expect(findHeaderProblem(DAILY, row)).not.toBeNull();
    expect(findHeaderProblem(DAILY, taggedHeaderRow(row, tags))).toBeNull();
    expect(row).toContain('Net revenue');
  });

  it('a column moved among them is still found and refused (its tag moved with it)', () => {
    const at = keys.indexOf('cogs');
    const moved = [...keys.slice(0, at), ...keys.slice(at + 1), 'cogs'];
    const movedTags = moved.map((header, column) => tag(column + 1, header, column));
    expect(findHeaderProblem(DAILY, taggedHeaderRow(moved, movedTags))?.column).toBe(at + 1);
  });
});
