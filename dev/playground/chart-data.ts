/**
 * The charts the add-on built (workbook.json "charts"), resolved against the sheets' values into
 * what a chart draws: the first range is the domain (x axis), each further range a series; with
 * numHeaders 1 the first row of each range is its label. Rows whose domain cell is empty are left
 * out (Sheets draws nothing for them), and an empty value is a gap (null), never 0. Each series
 * carries its source cells' number format (the export has values only), so the page shows the axis
 * and tooltips as Sheets would: a margin held as a fraction under 0.00% reads 55.00%, not 0.55. Pure.
 */
import { parseA1 } from '../gas-runtime/spreadsheet/a1';
import type { ChartJson, JsonCell } from '../gas-runtime/spreadsheet/export';

export interface SeriesView {
  label: string;
  data: Array<number | null>;
  /** The number format of the series' source cells (its first number's), for its tooltips. */
  format?: string;
}

export interface ChartView {
  chartId: number | null;
  type: string;
  title: string;
  stacked: boolean;
  position: ChartJson['position'];
  width: number | null;
  height: number | null;
  labels: string[];
  series: SeriesView[];
  /**
   * The value axis's number format: Sheets' axis format defaults to "From source data", the first
   * series' (support.google.com/docs/answer/63824, "Customize a chart": Number format).
   */
  axisFormat?: string;
  /** Each range as the spec names it, to show under the chart. */
  ranges: string[];
}

type Sheets = Record<string, JsonCell[][]>;

/** The number format of a sheet's cell (1-based), as the add-on set it; undefined when none. */
export type FormatOf = (sheetName: string, row: number, column: number) => string | undefined;

/** The format of a range's first number after its header rows: what its values are shown in. */
function rangeFormat(a1: string, sheets: Sheets, headers: number, formatOf: FormatOf): string | undefined {
  const ref = parseA1(a1);
  if (!ref || ref.sheetName === undefined) return undefined;
  const cells = rangeCells(a1, sheets);
  const first = cells.findIndex((cell, i) => i >= headers && numberOrNull(cell) !== null);
  return first < 0 ? undefined : formatOf(ref.sheetName, (ref.startRow ?? 1) + first, ref.startColumn ?? 1);
}

/** One column (or row) range's cells, read from the exported values ('' past the last row). */
function rangeCells(a1: string, sheets: Sheets): JsonCell[] {
  const ref = parseA1(a1);
  if (!ref || ref.sheetName === undefined) return [];
  const values = sheets[ref.sheetName] ?? [];
  const firstRow = ref.startRow ?? 1;
  const lastRow = ref.endRow ?? values.length;
  const column = ref.startColumn ?? 1;
  const out: JsonCell[] = [];
  for (let r = firstRow; r <= lastRow; r++) out.push(values[r - 1]?.[column - 1] ?? '');
  return out;
}

function numberOrNull(cell: JsonCell): number | null {
  return typeof cell === 'number' && Number.isFinite(cell) ? cell : null;
}

export function chartView(chart: ChartJson, sheets: Sheets, formatOf: FormatOf = () => undefined): ChartView {
  const columns = chart.ranges.map((r) => rangeCells(r, sheets));
  const headers = chart.numHeaders > 0 ? chart.numHeaders : 0;
  const [domain = [], ...seriesColumns] = columns;
  const keep: number[] = [];
  for (let i = headers; i < domain.length; i++) if (domain[i] !== '') keep.push(i);
  const width = chart.options.width;
  const height = chart.options.height;
  const formats = chart.ranges.slice(1).map((r) => rangeFormat(r, sheets, headers, formatOf));
  return {
    chartId: chart.chartId,
    type: chart.type,
    title: chart.title ?? '',
    stacked: chart.options.isStacked === true,
    position: chart.position,
    width: typeof width === 'number' ? width : null,
    height: typeof height === 'number' ? height : null,
    labels: keep.map((i) => String(domain[i])),
    series: seriesColumns.map((cells, s) => ({
      label: headers > 0 ? String(cells[0] ?? '') : `Series ${s + 1}`,
      data: keep.map((i) => numberOrNull(cells[i] ?? '')),
      ...(formats[s] === undefined ? {} : { format: formats[s] }),
    })),
    ...(formats[0] === undefined ? {} : { axisFormat: formats[0] }),
    ranges: chart.ranges.slice(),
  };
}

/** Every sheet's charts, resolved. */
export function chartViews(
  exported: {
    sheets: Sheets;
    charts?: Record<string, ChartJson[]>;
  },
  formatOf?: FormatOf,
): Record<string, ChartView[]> {
  const out: Record<string, ChartView[]> = {};
  for (const [sheet, charts] of Object.entries(exported.charts ?? {}))
    out[sheet] = charts.map((c) => chartView(c, exported.sheets, formatOf));
  return out;
}
