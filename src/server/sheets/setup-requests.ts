/**
 * A managed sheet's set-up as Sheets API requests, so the whole of it (the sheet, its tags,
 * widths, highlights, number formats and bold, annotated header row) is ONE batchUpdate: one
 * write request, applied all or nothing (a set-up cut short leaves no half-made sheet behind).
 * SpreadsheetApp would take a call per part, and its grid writes (setNotes, setValues) cost about
 * 0.26 s each (apps-script-cost-model.md). Pure.
 */
import { FORMAT_TYPES } from './column-formats';
import { numberFormatFor } from './rows';
import { STORE_METADATA_KEY, TABLE_METADATA_KEY } from './sheet-tags';
import type { TableSchema } from './schema';

type SheetsRequest = GoogleAppsScript.Sheets.Schema.Request;

/** A new sheet of `rows` rows and exactly the schema's columns, its header row (and the schema's leading columns) frozen. */
export function addSheetRequest(sheetId: number, schema: TableSchema, rows: number): SheetsRequest {
  return {
    addSheet: {
      properties: {
        sheetId,
        title: schema.sheetName,
        gridProperties: {
          rowCount: rows,
          columnCount: schema.columns.length,
          frozenRowCount: 1,
          ...(schema.frozenColumns ? { frozenColumnCount: schema.frozenColumns } : {}),
        },
      },
    },
  };
}

/** The header row (and the schema's leading columns) frozen: a sheet found empty; a new one has it from addSheet. */
export function freezeHeaderRequest(sheetId: number, schema?: TableSchema): SheetsRequest {
  const columns = schema?.frozenColumns;
  return {
    updateSheetProperties: {
      properties: {
        sheetId,
        gridProperties: { frozenRowCount: 1, ...(columns ? { frozenColumnCount: columns } : {}) },
      },
      fields: columns
        ? 'gridProperties.frozenRowCount,gridProperties.frozenColumnCount'
        : 'gridProperties.frozenRowCount',
    },
  };
}

/** The store and table tags (as the sheet tags read them) of a sheet the set-up creates, visible to the document as addDeveloperMetadata makes them. */
export function tagRequests(sheetId: number, schema: TableSchema, storeId: string): SheetsRequest[] {
  return [
    [STORE_METADATA_KEY, storeId],
    [TABLE_METADATA_KEY, schema.sheetName],
  ].map(([metadataKey, metadataValue]) => ({
    createDeveloperMetadata: {
      developerMetadata: { metadataKey, metadataValue, location: { sheetId }, visibility: 'DOCUMENT' },
    },
  }));
}

/**
 * Rows 2..`rows` of every column with a format (amounts in the store's currency, dates, text
 * ids...), one request per run of adjacent columns of the same format; the others stay General.
 */
export function rowFormatRequests(
  sheetId: number,
  schema: TableSchema,
  currency: string | null,
  rows: number,
): SheetsRequest[] {
  if (rows < 2) return [];
  const requests: SheetsRequest[] = [];
  const columns = schema.columns;
  for (let start = 0; start < columns.length;) {
    const pattern = numberFormatFor(columns[start].kind, currency);
    const type = FORMAT_TYPES[columns[start].kind] ?? 'NUMBER';
    let end = start + 1;
    while (
      end < columns.length &&
      numberFormatFor(columns[end].kind, currency) === pattern &&
      (FORMAT_TYPES[columns[end].kind] ?? 'NUMBER') === type
    )
      end++;
    if (pattern !== null)
      requests.push({
        repeatCell: {
          range: { sheetId, startRowIndex: 1, endRowIndex: rows, startColumnIndex: start, endColumnIndex: end },
          cell: { userEnteredFormat: { numberFormat: { type, pattern } } },
          fields: 'userEnteredFormat.numberFormat',
        },
      });
    start = end;
  }
  return requests;
}

/** The header row: the column names in bold, each with its note where the schema has one. */
export function headerRowRequest(sheetId: number, schema: TableSchema): SheetsRequest {
  const notes = schema.columns.some((c) => c.note);
  return {
    updateCells: {
      start: { sheetId, rowIndex: 0, columnIndex: 0 },
      rows: [
        {
          values: schema.columns.map((c) => ({
            userEnteredValue: { stringValue: c.header },
            userEnteredFormat: { textFormat: { bold: true } },
            ...(notes && c.note ? { note: c.note } : {}),
          })),
        },
      ],
      fields: notes
        ? 'userEnteredValue,note,userEnteredFormat.textFormat.bold'
        : 'userEnteredValue,userEnteredFormat.textFormat.bold',
    },
  };
}
