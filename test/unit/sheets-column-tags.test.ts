/** Where the column tags put a layout's columns (column-tags.ts), and the set-up's tag requests. */
import { describe, expect, it } from 'vitest';
import { columnTagRequests, taggedLayout } from '../../src/server/sheets/column-tags';

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
