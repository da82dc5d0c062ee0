/**
 * The charts the add-on built (workbook.json "charts"), resolved against the sheets' values into
 * what a chart draws: the first range is the domain (x axis), each further range a series; with
 * numHeaders 1 the first row of each range is its label. Rows whose domain cell is empty are left
 * out (Sheets draws nothing for them), and an empty value is a gap (null), never 0. Pure.
 */
import { parseA1 } from '../gas-runtime/spreadsheet/a1';
import type { ChartJson, JsonCell } from '../gas-runtime/spreadsheet/export';

export interface SeriesView {
  label: string;
  data: Array<number | null>;
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
  /** Each range as the spec names it, to show under the chart. */
  ranges: string[];
}

type Sheets = Record<string, JsonCell[][]>;

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

export function chartView(chart: ChartJson, sheets: Sheets): ChartView {
  const columns = chart.ranges.map((r) => rangeCells(r, sheets));
  const headers = chart.numHeaders > 0 ? chart.numHeaders : 0;
  const [domain = [], ...seriesColumns] = columns;
  const keep: number[] = [];
  for (let i = headers; i < domain.length; i++) if (domain[i] !== '') keep.push(i);
  const width = chart.options.width;
  const height = chart.options.height;
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
    })),
    ranges: chart.ranges.slice(),
  };
}

/** Every sheet's charts, resolved. */
export function chartViews(exported: {
  sheets: Sheets;
  charts?: Record<string, ChartJson[]>;
}): Record<string, ChartView[]> {
  const out: Record<string, ChartView[]> = {};
  for (const [sheet, charts] of Object.entries(exported.charts ?? {}))
    out[sheet] = charts.map((c) => chartView(c, exported.sheets));
  return out;
}
