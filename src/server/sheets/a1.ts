/** A1 notation for Values.batchUpdate ranges: 'Line items'!A2:O2 (sheet names always quoted). */

export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

export function quoteSheetName(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

/** Rows and columns are 1-based and inclusive. */
export function a1Range(
  sheetName: string,
  firstRow: number,
  firstColumn: number,
  lastRow: number,
  lastColumn: number,
): string {
  return `${quoteSheetName(sheetName)}!${columnLetter(firstColumn)}${firstRow}:${columnLetter(lastColumn)}${lastRow}`;
}
