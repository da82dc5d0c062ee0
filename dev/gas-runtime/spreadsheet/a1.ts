/** A1 notation: parsing (with quoted sheet names) and formatting, 1-based and inclusive. */

export const MAX_COLUMNS = 18278; // ZZZ

/** A parsed reference; an undefined bound is open ("A:A" has no rows, "A2:F" no end row). */
export interface A1Reference {
  sheetName?: string;
  startRow?: number;
  startColumn?: number;
  endRow?: number;
  endColumn?: number;
}

export interface GridRect {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export function columnToLetters(column: number): string {
  let letters = '';
  let n = column;
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export function lettersToColumn(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

const PART = /^\$?([A-Za-z]{1,3})?\$?([0-9]+)?$/;

interface Part {
  column?: number;
  row?: number;
}

function parsePart(text: string): Part | undefined {
  const m = PART.exec(text);
  if (!m || (!m[1] && !m[2])) return undefined;
  const part: Part = {};
  if (m[1]) part.column = lettersToColumn(m[1]);
  if (m[2]) part.row = Number(m[2]);
  if (part.row === 0 || (part.column !== undefined && part.column > MAX_COLUMNS)) return undefined;
  return part;
}

/** Splits "'Line items'!A2:F9" into the sheet name and the cell part; quotes '' unescape to '. */
function splitSheet(text: string): { sheetName?: string; ref: string } | undefined {
  if (text.startsWith("'")) {
    let i = 1;
    let name = '';
    while (i < text.length) {
      if (text[i] === "'") {
        if (text[i + 1] === "'") {
          name += "'";
          i += 2;
          continue;
        }
        break;
      }
      name += text[i];
      i++;
    }
    if (i >= text.length || name === '') return undefined;
    const rest = text.slice(i + 1);
    if (rest === '') return { sheetName: name, ref: '' };
    if (!rest.startsWith('!')) return undefined;
    return { sheetName: name, ref: rest.slice(1) };
  }
  const bang = text.lastIndexOf('!');
  if (bang < 0) return { ref: text };
  if (bang === 0) return undefined;
  return { sheetName: text.slice(0, bang), ref: text.slice(bang + 1) };
}

/** Parses the cell part ("A1", "A1:B2", "A:B", "2:5", "A2:F"); undefined when it is not A1. */
function parseCellReference(ref: string): A1Reference | undefined {
  const pieces = ref.trim().split(':');
  if (pieces.length > 2 || pieces[0] === '') return undefined;
  const start = parsePart(pieces[0]);
  if (!start) return undefined;
  if (pieces.length === 1) {
    // A lone cell; a lone column or row ("A", "5") is not valid A1.
    if (start.row === undefined || start.column === undefined) return undefined;
    return { startRow: start.row, startColumn: start.column, endRow: start.row, endColumn: start.column };
  }
  const end = parsePart(pieces[1]);
  if (!end) return undefined;
  const columnsOnly = start.row === undefined || end.row === undefined;
  const rowsOnly = start.column === undefined || end.column === undefined;
  if (start.row === undefined && start.column === undefined) return undefined;
  const result: A1Reference = {};
  if (!rowsOnly || start.column !== undefined) result.startColumn = start.column;
  if (!rowsOnly || end.column !== undefined) result.endColumn = end.column;
  if (!columnsOnly || start.row !== undefined) result.startRow = start.row;
  if (!columnsOnly || end.row !== undefined) result.endRow = end.row;
  if (result.startRow === undefined && result.endRow !== undefined) return undefined;
  if (result.startColumn === undefined && result.endColumn !== undefined) return undefined;
  // Normalise reversed corners (B2:A1 is A1:B2, as Sheets reads it).
  if (result.startRow !== undefined && result.endRow !== undefined && result.endRow < result.startRow) {
    [result.startRow, result.endRow] = [result.endRow, result.startRow];
  }
  if (result.startColumn !== undefined && result.endColumn !== undefined && result.endColumn < result.startColumn) {
    [result.startColumn, result.endColumn] = [result.endColumn, result.startColumn];
  }
  return result;
}

/**
 * Parses "Sheet!A1:B2", "'Daily P&L'!A1", "A1:B2" or a bare sheet name ("Orders", "'Line items'":
 * the whole sheet). A bare text that reads as a cell reference is a reference, as in Sheets.
 */
export function parseA1(text: string): A1Reference | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const split = splitSheet(trimmed);
  if (!split) return undefined;
  if (split.sheetName === undefined) {
    const ref = parseCellReference(split.ref);
    return ref ?? { sheetName: split.ref };
  }
  if (split.ref === '') return { sheetName: split.sheetName };
  const ref = parseCellReference(split.ref);
  return ref ? { sheetName: split.sheetName, ...ref } : undefined;
}

/** Closes open bounds against the sheet's grid. */
export function resolveReference(ref: A1Reference, maxRows: number, maxColumns: number): GridRect {
  const row = ref.startRow ?? 1;
  const column = ref.startColumn ?? 1;
  const endRow = ref.endRow ?? maxRows;
  const endColumn = ref.endColumn ?? maxColumns;
  return { row, column, numRows: Math.max(0, endRow - row + 1), numColumns: Math.max(0, endColumn - column + 1) };
}

export function formatA1(rect: GridRect): string {
  const start = `${columnToLetters(rect.column)}${rect.row}`;
  if (rect.numRows === 1 && rect.numColumns === 1) return start;
  return `${start}:${columnToLetters(rect.column + rect.numColumns - 1)}${rect.row + rect.numRows - 1}`;
}

/** Quotes a sheet name the way the Sheets API prints it ('Line items'!A1, Orders!A1). */
export function quoteSheetName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !parseCellReference(name)) return name;
  return `'${name.replace(/'/g, "''")}'`;
}
