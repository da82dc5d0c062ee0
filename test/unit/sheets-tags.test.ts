/** Locating and claiming managed sheets from the one snapshot read (sheet-tags.ts, pure). */
import { describe, expect, it } from 'vitest';
import { ORDERS, SYNC_LOG } from '../../src/server/sheets/schema';
import type { SheetInfo } from '../../src/server/sheets/sheet-snapshot';
import {
  claimSheet,
  locateSheet,
  SheetLayoutError,
  SheetOwnershipError,
  STORE_METADATA_KEY,
  TABLE_METADATA_KEY,
  taggedSheets,
} from '../../src/server/sheets/sheet-tags';

function sheet(sheetId: number, title: string, tags: Array<[number, string, string | null]> = []): SheetInfo {
  return { sheetId, title, rows: 1000, columns: 26, tags: tags.map(([id, key, value]) => ({ id, key, value })) };
}

describe('locateSheet', () => {
  it('finds a sheet by its name first, else by its table tag (renamed by the user)', () => {
    const renamed = sheet(7, 'My orders', [
      [3, STORE_METADATA_KEY, 'st_1'],
      [4, TABLE_METADATA_KEY, 'Orders'],
    ]);
    const sheets = [sheet(0, 'Sheet1'), renamed];
    expect(locateSheet(sheets, ORDERS, () => taggedSheets(sheets))).toEqual({ info: renamed, name: 'My orders' });
    const named = sheet(9, 'Orders');
    expect(locateSheet([...sheets, named], ORDERS, () => taggedSheets(sheets))?.info).toBe(named);
    // The Sync log is never followed by tag.
    expect(locateSheet(sheets, SYNC_LOG, () => taggedSheets(sheets))).toBeNull();
  });

  it('refuses two sheets tagged as the same table, naming them in the order they were tagged', () => {
    const sheets = [
      sheet(1, 'Copy of Orders', [[20, TABLE_METADATA_KEY, 'Orders']]),
      sheet(2, 'Old orders', [[5, TABLE_METADATA_KEY, 'Orders']]),
    ];
    expect(() => locateSheet(sheets, ORDERS, () => taggedSheets(sheets))).toThrow(SheetLayoutError);
    expect(() => locateSheet(sheets, ORDERS, () => taggedSheets(sheets))).toThrow(
      'Both "Old orders" and "Copy of Orders" carry',
    );
  });
});

describe('claimSheet', () => {
  const located = (tags: Array<[number, string, string | null]>) => ({
    info: sheet(3, 'Orders', tags),
    name: 'Orders',
  });

  it("accepts the store's own sheet and adds a missing table tag", () => {
    const added: string[][] = [];
    claimSheet(located([[1, STORE_METADATA_KEY, 'st_1']]), ORDERS, 'st_1', false, (k, v) => added.push([k, v]));
    expect(added).toEqual([[TABLE_METADATA_KEY, 'Orders']]);
  });

  it("refuses another store's sheet and a user's untagged sheet with data; claims an empty untagged one", () => {
    const none = (): void => {
      throw new Error('nothing may be tagged');
    };
    expect(() => claimSheet(located([[1, STORE_METADATA_KEY, 'st_2']]), ORDERS, 'st_1', false, none)).toThrow(
      /another store \(st_2\)/,
    );
    expect(() => claimSheet(located([]), ORDERS, 'st_1', false, none)).toThrow(SheetOwnershipError);
    const added: string[][] = [];
    claimSheet(located([]), ORDERS, 'st_1', true, (k, v) => added.push([k, v]));
    expect(added).toEqual([
      [STORE_METADATA_KEY, 'st_1'],
      [TABLE_METADATA_KEY, 'Orders'],
    ]);
  });
});
