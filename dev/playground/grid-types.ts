/** What the playground server sends the page about a sheet and its cells (the grid view makes them, the page's grid draws them). */

export interface GridSheet {
  name: string;
  sheetId: number;
  hidden: boolean;
  /** Last row with a value, formula or spilled answer. */
  lastRow: number;
  /** Rows the grid draws: past the last row by EMPTY_ROWS_BELOW, at most the sheet's rows. */
  rowCount: number;
  columnCount: number;
  frozenRows: number;
  frozenColumns: number;
  /** Pixel width of each column, as set (Sheets' 100 px where nobody set one). */
  widths: number[];
  /** True while a formula of the sheet is still running (the page polls until it is false). */
  computing: boolean;
  /** Embedded charts on the sheet (drawn above its cells). */
  charts: number;
}

export interface GridCell {
  /** Displayed text. */
  t: string;
  /** n = number (right-aligned), b = boolean (centred), e = error; absent for text. */
  k?: 'n' | 'b' | 'e';
  /** What the formula bar shows when it differs from t: the formula, or the value as typed. */
  edit?: string;
  note?: string;
  bold?: true;
  /** Error message (hover), for k = 'e'. */
  message?: string;
  /** Part of a formula's spilled answer. */
  spill?: true;
  /** Set by a conditional format rule: fill and text colour (CSS), italic, strikethrough (bold sets `bold`). */
  bg?: string;
  fg?: string;
  italic?: true;
  strike?: true;
}
