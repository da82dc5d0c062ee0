import { describe, expect, it } from 'vitest';
import { openSession } from '../../dev/gas-runtime/spreadsheet/session';
import { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { UiLog } from '../../dev/gas-runtime/types';
import type { HtmlOutputLike } from '../../dev/gas-runtime/types';

const newBook = () => new Workbook({ timeZone: 'UTC', id: 'book-1' });

describe('custom functions are read-only', () => {
  it('reads work; every mutating method throws "You do not have permission to call <Class>.<method>"', () => {
    const wb = newBook();
    openSession(wb).SpreadsheetApp.getActive().getSheets()[0].getRange('A1').setValue(7);
    const { SpreadsheetApp } = openSession(wb, 'CUSTOM_FUNCTION');
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const sheet = ss.getSheets()[0];
    const range = sheet.getRange('A1');
    expect(range.getValue()).toBe(7);
    const attempts: Array<[string, () => unknown]> = [
      ['Range.setValue', () => range.setValue(1)],
      ['Range.setValues', () => range.setValues([[1]])],
      ['Range.setNumberFormat', () => range.setNumberFormat('0')],
      ['Range.clearContent', () => range.clearContent()],
      ['Sheet.appendRow', () => sheet.appendRow([1])],
      ['Sheet.insertRowsAfter', () => sheet.insertRowsAfter(1, 1)],
      ['Sheet.hideSheet', () => sheet.hideSheet()],
      ['Sheet.addDeveloperMetadata', () => sheet.addDeveloperMetadata('k')],
      ['Spreadsheet.insertSheet', () => ss.insertSheet('X')],
      ['Spreadsheet.deleteSheet', () => ss.deleteSheet(sheet)],
    ];
    for (const [name, attempt] of attempts) expect(attempt, name).toThrow(`You do not have permission to call ${name}`);
    expect(range.getValue()).toBe(7);
    expect(wb.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('has no UI and no Advanced Sheets service', () => {
    const { SpreadsheetApp, Sheets } = openSession(newBook(), 'CUSTOM_FUNCTION');
    expect(() => SpreadsheetApp.getUi()).toThrow('Cannot call SpreadsheetApp.getUi() from this context.');
    expect(() => Sheets.Spreadsheets.Values.get('book-1', 'A1')).toThrow(
      'You do not have permission to call Sheets.Spreadsheets.Values.get',
    );
  });
});

describe('UI by auth mode', () => {
  const page: HtmlOutputLike = {
    getContent: () => '<p>hi</p>',
    getTitle: () => 'Merchant Analytics',
    getWidth: () => 300,
    getHeight: () => 600,
  };

  it('onOpen in AuthMode.NONE may build the add-on menu but cannot open the document or a sidebar', () => {
    const ui = new UiLog();
    const { SpreadsheetApp } = openSession(newBook(), 'NONE', ui);
    SpreadsheetApp.getUi()
      .createAddonMenu()
      .addItem('Open', 'showSidebar')
      .addSeparator()
      .addItem('Sync now', 'syncNow')
      .addToUi();
    expect(ui.menus).toEqual([
      {
        title: 'Add-on',
        addon: true,
        items: [
          { kind: 'item', caption: 'Open', functionName: 'showSidebar' },
          { kind: 'separator' },
          { kind: 'item', caption: 'Sync now', functionName: 'syncNow' },
        ],
      },
    ]);
    expect(() => SpreadsheetApp.getActiveSpreadsheet()).toThrow(
      'You do not have permission to call SpreadsheetApp.getActiveSpreadsheet',
    );
    expect(() => SpreadsheetApp.getUi().showSidebar(page)).toThrow('You do not have permission to call Ui.showSidebar');
  });

  it('FULL shows sidebars and answers alerts from the queued responses', () => {
    const ui = new UiLog();
    const { SpreadsheetApp } = openSession(newBook(), 'FULL', ui);
    const appUi = SpreadsheetApp.getUi();
    appUi.showSidebar(page);
    expect(ui.lastSidebar).toMatchObject({ title: 'Merchant Analytics', html: '<p>hi</p>' });
    ui.answerAlerts('NO');
    expect(appUi.alert('Disconnect?', 'This removes the tokens.', appUi.ButtonSet.YES_NO)).toBe(appUi.Button.NO);
    expect(ui.alerts[0]).toMatchObject({ title: 'Disconnect?', prompt: 'This removes the tokens.', buttons: 'YES_NO' });
  });
});

describe('the 10,000,000-cell workbook limit', () => {
  const message = 'This action would increase the number of cells in the workbook above the limit of 10000000 cells.';

  it('counts max rows × max columns of every sheet and refuses growth beyond it, changing nothing', () => {
    const wb = newBook();
    const sheet = openSession(wb).SpreadsheetApp.getActive().getSheets()[0];
    sheet.insertRowsAfter(1000, 383_000); // 384,000 × 26 = 9,984,000 cells
    expect(wb.totalCells()).toBe(9_984_000);
    expect(() => sheet.insertRowsAfter(1, 616)).toThrow(message); // +16,016
    expect(() => sheet.insertColumnsAfter(26, 1)).toThrow(message);
    expect(() => openSession(wb).SpreadsheetApp.getActive().insertSheet('More')).toThrow(message);
    expect(sheet.getMaxRows()).toBe(384_000);
    sheet.insertRowsAfter(1, 615); // +15,990: just fits
    expect(wb.totalCells()).toBe(9_999_990);
  });
});

describe('inserting rows and columns moves the cells below and to the right', () => {
  it('shifts content by a large insert without losing any cell', () => {
    const sheet = openSession(newBook()).SpreadsheetApp.getActive().getSheets()[0];
    sheet.getRange('A1:C2').setValues([
      ['h1', 'h2', 'h3'],
      ['a', 'b', 'c'],
    ]);
    sheet.insertRowsAfter(1, 200_000);
    sheet.insertColumnsAfter(1, 2);
    expect(sheet.getMaxRows()).toBe(201_000);
    expect(sheet.getMaxColumns()).toBe(28);
    expect(sheet.getRange('A1:E1').getValues()).toEqual([['h1', '', '', 'h2', 'h3']]);
    expect(sheet.getRange('A200002:E200002').getValues()).toEqual([['a', '', '', 'b', 'c']]);
    expect(sheet.getLastRow()).toBe(200_002);
  });
});

describe('the 50,000-character cell limit', () => {
  const message = 'Your input contains more than the maximum of 50000 characters in a single cell.';

  it('accepts 50,000 characters and refuses 50,001 without writing any cell of the batch', () => {
    const sheet = openSession(newBook()).SpreadsheetApp.getActive().getSheets()[0];
    sheet.getRange('A1').setValue('x'.repeat(50_000));
    expect((sheet.getRange('A1').getValue() as string).length).toBe(50_000);
    expect(() => sheet.getRange('A2:B2').setValues([['ok', 'y'.repeat(50_001)]])).toThrow(message);
    expect(sheet.getRange('A2').getValue()).toBe('');
  });
});

describe('sheets: insert, rename, hide, freeze', () => {
  it('follows Google rules for names, hiding and the active sheet', () => {
    const ss = openSession(newBook()).SpreadsheetApp.getActive();
    const orders = ss.insertSheet('Orders');
    expect(ss.getActiveSheet().getName()).toBe('Orders');
    expect(() => ss.insertSheet('Orders')).toThrow(
      'A sheet with the name "Orders" already exists. Please enter another name.',
    );
    ss.insertSheet('Line items', 0);
    expect(ss.getSheets().map((s) => s.getName())).toEqual(['Line items', 'Sheet1', 'Orders']);
    expect(orders.getIndex()).toBe(3);
    orders.setFrozenRows(1);
    expect(orders.getFrozenRows()).toBe(1);
    ss.getSheetByName('Sheet1')!.hideSheet();
    ss.getSheetByName('Line items')!.hideSheet();
    expect(() => orders.hideSheet()).toThrow("You can't hide all the sheets in a document.");
    ss.deleteSheet(orders);
    expect(() => orders.getName()).toThrow('Sheet not found');
    expect(ss.getSheetByName('Orders')).toBeNull();
  });
});
