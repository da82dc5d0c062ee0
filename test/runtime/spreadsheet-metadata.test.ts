import { describe, expect, it } from 'vitest';
import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';

function setup() {
  const wb = new Workbook({ timeZone: 'UTC', id: 'book-1' });
  const { SpreadsheetApp } = openSession(wb);
  const ss = SpreadsheetApp.getActive();
  return { wb, ss, SpreadsheetApp };
}

describe('developer metadata: tagging and the finder', () => {
  it('finds by key across spreadsheet, sheet and row locations, and filters by value and location type', () => {
    const { ss, SpreadsheetApp } = setup();
    const orders = ss.insertSheet('Orders');
    ss.addDeveloperMetadata('ma.store', 'st_1');
    orders.addDeveloperMetadata('ma.store', 'st_1', SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
    orders.getRange('2:2').addDeveloperMetadata('ma.row', 'ord_9');
    ss.getSheetByName('Sheet1')!.addDeveloperMetadata('ma.store', 'st_2');

    const all = ss.createDeveloperMetadataFinder().withKey('ma.store').find();
    expect(all.map((m) => m.getValue())).toEqual(['st_1', 'st_1', 'st_2']);
    const onOrders = orders.createDeveloperMetadataFinder().withKey('ma.store').find();
    expect(onOrders).toHaveLength(1);
    expect(onOrders[0].getVisibility()).toBe('PROJECT');
    expect(onOrders[0].getLocation().getLocationType()).toBe('SHEET');
    expect(onOrders[0].getLocation().getSheet()!.getName()).toBe('Orders');
    expect(ss.createDeveloperMetadataFinder().withKey('ma.store').withValue('st_2').find()).toHaveLength(1);
    expect(
      ss
        .createDeveloperMetadataFinder()
        .withLocationType('ROW')
        .find()
        .map((m) => m.getKey()),
    ).toEqual(['ma.row']);
    expect(ss.getDeveloperMetadata().map((m) => m.getValue())).toEqual(['st_1']);
    expect(orders.getDeveloperMetadata().map((m) => m.getKey())).toEqual(['ma.store']);
  });

  it('row metadata moves with inserted rows and disappears with its sheet', () => {
    const { ss, wb } = setup();
    const orders = ss.insertSheet('Orders');
    orders.getRange('5:5').addDeveloperMetadata('ma.row');
    orders.insertRowsAfter(2, 3);
    const [tag] = orders.createDeveloperMetadataFinder().withKey('ma.row').find();
    expect(tag.getLocation().getRow()!.getRow()).toBe(8);
    expect(orders.getRange('A8').getDeveloperMetadata()).toHaveLength(1);
    ss.deleteSheet(orders);
    expect(wb.developerMetadata).toHaveLength(0);
  });

  it('refuses metadata on an arbitrary range, as Google does', () => {
    const { ss } = setup();
    expect(() => ss.getSheets()[0].getRange('A1:B2').addDeveloperMetadata('k')).toThrow(
      'Adding developer metadata to arbitrary ranges is not currently supported.',
    );
  });

  it('setValue and remove change the stored metadata', () => {
    const { ss } = setup();
    ss.addDeveloperMetadata('k', 'v1');
    const [m] = ss.createDeveloperMetadataFinder().withKey('k').find();
    m.setValue('v2');
    expect(ss.createDeveloperMetadataFinder().withKey('k').find()[0].getValue()).toBe('v2');
    m.remove();
    expect(ss.createDeveloperMetadataFinder().withKey('k').find()).toHaveLength(0);
  });
});
