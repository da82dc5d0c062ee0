/**
 * Draws the embedded charts of the sheet on show with Chart.js, from the chart specs the add-on
 * built (type, ranges resolved to labels and series by the server, title, stacking), each placed
 * at its anchor cell over the grid as Sheets places it (so the cells above and beside it stay in
 * view). The page's only hook: renderCharts(host, charts, place).
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
  Tooltip,
} from 'chart.js';
import { displayValue } from '../../gas-runtime/spreadsheet/number-format';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
  Tooltip,
  Legend,
);

export interface ChartViewData {
  chartId: number | null;
  type: string;
  title: string;
  stacked: boolean;
  position: { anchorRow: number; anchorColumn: number; offsetX?: number; offsetY?: number };
  width: number | null;
  height: number | null;
  labels: string[];
  series: Array<{ label: string; data: Array<number | null>; format?: string }>;
  axisFormat?: string;
  ranges: string[];
}

const COLORS = ['#1a73e8', '#188038', '#e37400', '#a142f4', '#d93025', '#12b5cb'];
let drawn: Chart[] = [];

/** Sheets' LINE and COLUMN (and AREA/BAR) map onto Chart.js line and bar charts. */
function chartJsType(type: string): 'line' | 'bar' {
  return type === 'LINE' || type === 'AREA' ? 'line' : 'bar';
}

/** Where a chart's anchor cell starts in the grid, px. */
export type ChartPlace = (anchorRow: number, anchorColumn: number) => { left: number; top: number };

export function renderCharts(host: HTMLElement, charts: readonly ChartViewData[], place: ChartPlace): void {
  for (const chart of drawn) chart.destroy();
  drawn = [];
  host.hidden = charts.length === 0;
  const ordered = charts
    .slice()
    .sort((a, b) => a.position.anchorRow - b.position.anchorRow || a.position.anchorColumn - b.position.anchorColumn);
  host.replaceChildren(
    ...ordered.map((spec) => {
      const figure = document.createElement('figure');
      figure.className = 'chart';
      figure.dataset.chartId = String(spec.chartId ?? '');
      figure.dataset.chartType = spec.type;
      const at = place(spec.position.anchorRow, spec.position.anchorColumn);
      figure.style.left = `${at.left + (spec.position.offsetX ?? 0)}px`;
      figure.style.top = `${at.top + (spec.position.offsetY ?? 0)}px`;
      const canvas = document.createElement('canvas');
      canvas.width = spec.width ?? 600;
      canvas.height = spec.height ?? 360;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', spec.title);
      const caption = document.createElement('figcaption');
      caption.textContent = `${spec.type} over ${spec.ranges.join(', ')}`;
      figure.append(canvas, caption);
      const type = chartJsType(spec.type);
      drawn.push(
        new Chart(canvas, {
          type,
          data: {
            labels: spec.labels,
            datasets: spec.series.map((s, i) => ({
              label: s.label,
              data: s.data,
              borderColor: COLORS[i % COLORS.length],
              backgroundColor: COLORS[i % COLORS.length],
              pointRadius: type === 'line' && spec.labels.length > 60 ? 0 : 2,
              spanGaps: false,
            })),
          },
          options: {
            responsive: false,
            animation: false,
            plugins: {
              title: { display: spec.title !== '', text: spec.title },
              legend: { position: 'bottom' },
              tooltip: {
                callbacks: {
                  label: (item) => {
                    const format = spec.series[item.datasetIndex]?.format;
                    const value = format === undefined ? item.formattedValue : displayValue(item.parsed.y ?? 0, format);
                    return `${item.dataset.label ?? ''}: ${value}`;
                  },
                },
              },
            },
            scales: {
              x: { stacked: spec.stacked },
              y: {
                stacked: spec.stacked,
                ...(spec.axisFormat === undefined
                  ? {}
                  : { ticks: { callback: (value: number | string) => displayValue(Number(value), spec.axisFormat) } }),
                // The value axis's labels as drawn, for whoever reads the page (a screen reader's title, a test).
                afterTickToLabelConversion: (scale) => {
                  figure.dataset.valueAxis = scale.ticks.map((t) => String(t.label)).join('|');
                },
              },
            },
          },
        }),
      );
      return figure;
    }),
  );
}
