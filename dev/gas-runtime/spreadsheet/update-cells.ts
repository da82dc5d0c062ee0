/**
 * The Sheets API's updateCells request
 * (developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/request#updatecellsrequest)
 * for the cell properties the model holds: `userEnteredValue` (string, number or bool, stored as
 * given, as RAW input is), `note`, `userEnteredFormat.textFormat.bold` and
 * `userEnteredFormat.numberFormat` (its pattern; the model keeps no format type). Rows start at
 * `start` (0-based GridCoordinate); `fields` names what is written, and a named field a cell leaves out
 * is cleared, as the API's field masks do. A field or value the model does not hold is refused
 * with a clear message rather than silently dropped, and cells past the grid fail as a Values
 * write past it does.
 */
import { apiWrite } from './input';
import type { SheetModel } from './sheet-model';

const MODELLED_FIELDS = new Set([
  'userEnteredValue',
  'note',
  'userEnteredFormat.textFormat.bold',
  'userEnteredFormat.numberFormat',
]);

interface CellDataInput {
  userEnteredValue?: { stringValue?: unknown; numberValue?: unknown; boolValue?: unknown; formulaValue?: unknown };
  note?: unknown;
  userEnteredFormat?: { textFormat?: { bold?: unknown }; numberFormat?: { pattern?: unknown } };
}

function valueOf(cell: CellDataInput, where: string): unknown {
  const entered = cell.userEnteredValue;
  if (entered === undefined) return undefined;
  if (entered.formulaValue !== undefined)
    throw new Error(`${where}: the local runtime does not model formulaValue in updateCells.`);
  return entered.stringValue ?? entered.numberValue ?? entered.boolValue;
}

function patternOf(cell: CellDataInput, where: string): string | undefined {
  const pattern = cell.userEnteredFormat?.numberFormat?.pattern;
  if (pattern !== undefined && typeof pattern !== 'string')
    throw new Error(`${where}: numberFormat.pattern must be text.`);
  return pattern;
}

export function updateCells(sheet: SheetModel, body: Record<string, unknown>, i: number, timeZone: string): void {
  const where = `Invalid requests[${i}].updateCells`;
  if (typeof body.fields !== 'string' || body.fields === '')
    throw new Error(`${where}: You must specify which fields you want to update.`);
  const fields = body.fields.split(',').map((f) => f.trim());
  const unmodelled = fields.filter((f) => !MODELLED_FIELDS.has(f));
  if (unmodelled.length > 0)
    throw new Error(
      `${where}: the local runtime models only ${[...MODELLED_FIELDS].join(', ')} (fields "${body.fields}").`,
    );
  if (body.start === undefined) throw new Error(`${where}: the local runtime models updateCells with a start only.`);
  const start = body.start as { rowIndex?: unknown; columnIndex?: unknown };
  const row0 = start.rowIndex ?? 0;
  const column0 = start.columnIndex ?? 0;
  if (!Number.isInteger(row0) || !Number.isInteger(column0) || (row0 as number) < 0 || (column0 as number) < 0)
    throw new Error(`${where}: invalid start.`);
  const rows = Array.isArray(body.rows) ? (body.rows as Array<{ values?: CellDataInput[] }>) : [];
  const lastRow = (row0 as number) + rows.length;
  const lastColumn =
    (column0 as number) + Math.max(0, ...rows.map((r) => (Array.isArray(r.values) ? r.values.length : 0)));
  if (lastRow > sheet.maxRows || lastColumn > sheet.maxColumns)
    throw new Error(
      `${where}: Range exceeds grid limits. Max rows: ${sheet.maxRows}, max columns: ${sheet.maxColumns}`,
    );
  rows.forEach((row, r) => {
    (row.values ?? []).forEach((cell, c) => {
      const at: [number, number] = [(row0 as number) + r + 1, (column0 as number) + c + 1];
      if (fields.includes('userEnteredValue'))
        sheet.write(...at, apiWrite(valueOf(cell, where), 'RAW', timeZone) ?? {});
      if (fields.includes('note')) sheet.setNote(...at, typeof cell.note === 'string' ? cell.note : undefined);
      if (fields.includes('userEnteredFormat.numberFormat')) sheet.setFormat(...at, patternOf(cell, where));
      if (fields.includes('userEnteredFormat.textFormat.bold'))
        sheet.setStyle(...at, { fontWeight: cell.userEnteredFormat?.textFormat?.bold === true ? 'bold' : 'normal' });
    });
  });
}
