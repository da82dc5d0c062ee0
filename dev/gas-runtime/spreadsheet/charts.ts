/**
 * Embedded charts as part of the workbook, with Google's API shape
 * (https://developers.google.com/apps-script/reference/spreadsheet/embedded-chart-builder,
 * .../embedded-chart, .../container-info, .../sheet#newChart()): Sheet.newChart() gives an
 * EmbeddedChartBuilder (asLineChart()/asColumnChart()/… keep the same builder, as the typed
 * builders share its methods), build() an EmbeddedChart, Sheet.insertChart/updateChart/
 * removeChart/getCharts keep it on the sheet. The model (type, ranges, options, position) is
 * saved with the workbook and exported in workbook.json, where the playground draws it.
 *
 * Stricter readings where Google's docs are silent: a chart's ranges are fixed rectangles (rows
 * inserted inside a range widen it, as ranges in Sheets do; rows added after its last row do
 * not), an option value must be JSON data, and a chart built but never inserted has no id.
 */
import { formatA1, quoteSheetName, type GridRect } from './a1';
import { Range } from './range';
import { refuseWrite, type SpreadsheetScope } from './scope';
import type { SheetModel } from './sheet-model';

export type ChartTypeName =
  'AREA' | 'BAR' | 'COLUMN' | 'COMBO' | 'LINE' | 'PIE' | 'SCATTER' | 'TABLE' | 'HISTOGRAM' | 'STEPPED_AREA';
const CHART_TYPES: readonly ChartTypeName[] = [
  'AREA',
  'BAR',
  'COLUMN',
  'COMBO',
  'LINE',
  'PIE',
  'SCATTER',
  'TABLE',
  'HISTOGRAM',
  'STEPPED_AREA',
];

export interface ChartRangeRef extends GridRect {
  sheetId: number;
}

export interface ChartPosition {
  anchorRow: number;
  anchorColumn: number;
  offsetX: number;
  offsetY: number;
}

export interface ChartSpec {
  /** Assigned when the chart is inserted; null for a chart only built. */
  chartId: number | null;
  type: ChartTypeName;
  ranges: ChartRangeRef[];
  options: Record<string, unknown>;
  position: ChartPosition;
  numHeaders: number;
  mergeStrategy: 'MERGE_COLUMNS' | 'MERGE_ROWS';
  transpose: boolean;
  hiddenDimensionStrategy: string;
}

function copySpec(spec: ChartSpec): ChartSpec {
  return JSON.parse(JSON.stringify(spec)) as ChartSpec;
}

function draftSpec(): ChartSpec {
  return {
    chartId: null,
    type: 'LINE',
    ranges: [],
    options: {},
    position: { anchorRow: 1, anchorColumn: 1, offsetX: 0, offsetY: 0 },
    numHeaders: -1,
    mergeStrategy: 'MERGE_COLUMNS',
    transpose: false,
    hiddenDimensionStrategy: 'IGNORE_BOTH',
  };
}

function badArgs(method: string, value: unknown): Error {
  return new Error(
    `The parameters (${value === null ? 'null' : typeof value}) don't match the method signature for SpreadsheetApp.${method}.`,
  );
}

function rangeRef(range: unknown, method: string): ChartRangeRef {
  if (!(range instanceof Range)) throw badArgs(method, range);
  return range._chartRef();
}

/** "'Daily P&L'!A1:A1000": a chart range in A1 notation with its sheet's current name. */
export function chartRangeA1(ref: ChartRangeRef, sheets: readonly SheetModel[]): string {
  const sheet = sheets.find((s) => s.sheetId === ref.sheetId);
  const name = sheet ? quoteSheetName(sheet.name) : '#REF';
  return `${name}!${formatA1(ref)}`;
}

/** Ranges of every chart on any sheet widen when rows/columns are inserted inside them (never after their end). */
export function shiftChartRanges(
  sheets: readonly SheetModel[],
  sheetId: number,
  type: 'ROW' | 'COLUMN',
  after: number,
  count: number,
): void {
  for (const sheet of sheets) {
    for (const chart of sheet.charts) {
      for (const r of chart.ranges) {
        if (r.sheetId !== sheetId) continue;
        const start = type === 'ROW' ? r.row : r.column;
        const size = type === 'ROW' ? r.numRows : r.numColumns;
        const end = start + size - 1;
        if (start > after) {
          if (type === 'ROW') r.row += count;
          else r.column += count;
        } else if (end > after) {
          if (type === 'ROW') r.numRows += count;
          else r.numColumns += count;
        }
      }
    }
  }
}

export class ContainerInfo {
  constructor(private readonly position: ChartPosition) {}
  getAnchorRow(): number {
    return this.position.anchorRow;
  }
  getAnchorColumn(): number {
    return this.position.anchorColumn;
  }
  getOffsetX(): number {
    return this.position.offsetX;
  }
  getOffsetY(): number {
    return this.position.offsetY;
  }
}

export class ChartOptions {
  constructor(private readonly options: Record<string, unknown>) {}
  get(option: string): unknown {
    const value = this.options[String(option)];
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  }
  getOrDefault(option: string): unknown {
    return this.get(option);
  }
}

export class EmbeddedChart {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly spec: ChartSpec,
  ) {}

  _spec(): ChartSpec {
    return this.spec;
  }

  getChartId(): number | null {
    return this.spec.chartId;
  }

  getRanges(): Range[] {
    return this.spec.ranges.flatMap((r) => {
      const sheet = this.scope.workbook.sheets.find((s) => s.sheetId === r.sheetId);
      return sheet
        ? [new Range(this.scope, sheet, { row: r.row, column: r.column, numRows: r.numRows, numColumns: r.numColumns })]
        : [];
    });
  }

  getOptions(): ChartOptions {
    return new ChartOptions(this.spec.options);
  }

  getContainerInfo(): ContainerInfo {
    return new ContainerInfo({ ...this.spec.position });
  }

  getNumHeaders(): number {
    return this.spec.numHeaders;
  }

  getMergeStrategy(): string {
    return this.spec.mergeStrategy;
  }

  getTransposeRowsAndColumns(): boolean {
    return this.spec.transpose;
  }

  getHiddenDimensionStrategy(): string {
    return this.spec.hiddenDimensionStrategy;
  }

  /** A builder holding this chart's settings (and id): build() then Sheet.updateChart() replaces it. */
  modify(): EmbeddedChartBuilder {
    return new EmbeddedChartBuilder(this.scope, copySpec(this.spec));
  }
}

export class EmbeddedChartBuilder {
  constructor(
    private readonly scope: SpreadsheetScope,
    private readonly spec: ChartSpec = draftSpec(),
  ) {}

  private as(type: ChartTypeName): EmbeddedChartBuilder {
    this.spec.type = type;
    return this;
  }

  asAreaChart(): EmbeddedChartBuilder {
    return this.as('AREA');
  }
  asBarChart(): EmbeddedChartBuilder {
    return this.as('BAR');
  }
  asColumnChart(): EmbeddedChartBuilder {
    return this.as('COLUMN');
  }
  asComboChart(): EmbeddedChartBuilder {
    return this.as('COMBO');
  }
  asLineChart(): EmbeddedChartBuilder {
    return this.as('LINE');
  }
  asPieChart(): EmbeddedChartBuilder {
    return this.as('PIE');
  }
  asScatterChart(): EmbeddedChartBuilder {
    return this.as('SCATTER');
  }
  asTableChart(): EmbeddedChartBuilder {
    return this.as('TABLE');
  }

  /** Charts.ChartType.X (its name) or the name itself. */
  setChartType(type: unknown): EmbeddedChartBuilder {
    const name = String(type) as ChartTypeName;
    if (!CHART_TYPES.includes(name)) throw badArgs('EmbeddedChartBuilder.setChartType', type);
    return this.as(name);
  }

  getChartType(): string {
    return this.spec.type;
  }

  addRange(range: unknown): EmbeddedChartBuilder {
    this.spec.ranges.push(rangeRef(range, 'EmbeddedChartBuilder.addRange'));
    return this;
  }

  removeRange(range: unknown): EmbeddedChartBuilder {
    const ref = rangeRef(range, 'EmbeddedChartBuilder.removeRange');
    this.spec.ranges = this.spec.ranges.filter(
      (r) =>
        !(
          r.sheetId === ref.sheetId &&
          r.row === ref.row &&
          r.column === ref.column &&
          r.numRows === ref.numRows &&
          r.numColumns === ref.numColumns
        ),
    );
    return this;
  }

  clearRanges(): EmbeddedChartBuilder {
    this.spec.ranges = [];
    return this;
  }

  getRanges(): Range[] {
    return new EmbeddedChart(this.scope, this.spec).getRanges();
  }

  setOption(option: string, value: unknown): EmbeddedChartBuilder {
    if (typeof option !== 'string' || option === '') throw badArgs('EmbeddedChartBuilder.setOption', option);
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(value ?? null)) as unknown;
    } catch {
      throw badArgs('EmbeddedChartBuilder.setOption', value);
    }
    this.spec.options[option] = copy;
    return this;
  }

  /** EmbeddedLineChartBuilder.setTitle and the other typed builders': the "title" option. */
  setTitle(title: string): EmbeddedChartBuilder {
    return this.setOption('title', String(title));
  }

  setXAxisTitle(title: string): EmbeddedChartBuilder {
    return this.setOption('hAxis.title', String(title));
  }

  setYAxisTitle(title: string): EmbeddedChartBuilder {
    return this.setOption('vAxis.title', String(title));
  }

  /** EmbeddedColumnChartBuilder.setStacked(): the "isStacked" option. */
  setStacked(): EmbeddedChartBuilder {
    return this.setOption('isStacked', true);
  }

  setLegendPosition(position: unknown): EmbeddedChartBuilder {
    return this.setOption('legend.position', String(position).toLowerCase());
  }

  setPosition(anchorRowPos: number, anchorColPos: number, offsetX: number, offsetY: number): EmbeddedChartBuilder {
    const ints = [anchorRowPos, anchorColPos, offsetX, offsetY];
    if (!ints.every((n) => typeof n === 'number' && Number.isInteger(n)) || anchorRowPos < 1 || anchorColPos < 1) {
      throw badArgs(
        'EmbeddedChartBuilder.setPosition',
        ints.find((n) => typeof n !== 'number'),
      );
    }
    this.spec.position = { anchorRow: anchorRowPos, anchorColumn: anchorColPos, offsetX, offsetY };
    return this;
  }

  setNumHeaders(headers: number): EmbeddedChartBuilder {
    if (typeof headers !== 'number' || !Number.isInteger(headers))
      throw badArgs('EmbeddedChartBuilder.setNumHeaders', headers);
    this.spec.numHeaders = headers;
    return this;
  }

  setMergeStrategy(strategy: unknown): EmbeddedChartBuilder {
    this.spec.mergeStrategy = String(strategy) === 'MERGE_ROWS' ? 'MERGE_ROWS' : 'MERGE_COLUMNS';
    return this;
  }

  setTransposeRowsAndColumns(transpose: boolean): EmbeddedChartBuilder {
    this.spec.transpose = transpose === true;
    return this;
  }

  setHiddenDimensionStrategy(strategy: unknown): EmbeddedChartBuilder {
    this.spec.hiddenDimensionStrategy = String(strategy);
    return this;
  }

  build(): EmbeddedChart {
    return new EmbeddedChart(this.scope, copySpec(this.spec));
  }
}

/** Sheet.insertChart/updateChart/removeChart/getCharts over a sheet's model. */
export const sheetCharts = {
  newChart(scope: SpreadsheetScope): EmbeddedChartBuilder {
    return new EmbeddedChartBuilder(scope);
  },

  insert(scope: SpreadsheetScope, sheet: SheetModel, chart: unknown): void {
    refuseWrite(scope, 'Sheet.insertChart');
    if (!(chart instanceof EmbeddedChart)) throw badArgs('Sheet.insertChart', chart);
    const spec = copySpec(chart._spec());
    if (spec.ranges.length === 0) throw new Error('The chart must have at least one data range.');
    const used = scope.workbook.sheets.flatMap((s) => s.charts.map((c) => c.chartId ?? 0));
    spec.chartId = Math.max(0, ...used) + 1;
    sheet.charts.push(spec);
    chart._spec().chartId = spec.chartId;
  },

  update(scope: SpreadsheetScope, sheet: SheetModel, chart: unknown): void {
    refuseWrite(scope, 'Sheet.updateChart');
    if (!(chart instanceof EmbeddedChart)) throw badArgs('Sheet.updateChart', chart);
    const spec = copySpec(chart._spec());
    const at = sheet.charts.findIndex((c) => c.chartId !== null && c.chartId === spec.chartId);
    if (at < 0) throw new Error('The chart does not exist on this sheet. Insert it first.');
    if (spec.ranges.length === 0) throw new Error('The chart must have at least one data range.');
    sheet.charts[at] = spec;
  },

  remove(scope: SpreadsheetScope, sheet: SheetModel, chart: unknown): void {
    refuseWrite(scope, 'Sheet.removeChart');
    if (!(chart instanceof EmbeddedChart)) throw badArgs('Sheet.removeChart', chart);
    const id = chart._spec().chartId;
    sheet.charts = sheet.charts.filter((c) => c.chartId !== id);
  },

  list(scope: SpreadsheetScope, sheet: SheetModel): EmbeddedChart[] {
    return sheet.charts.map((c) => new EmbeddedChart(scope, copySpec(c)));
  },
};
