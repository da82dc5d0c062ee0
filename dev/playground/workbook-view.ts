import type { ChartJson } from '../gas-runtime/spreadsheet/export';
import { chartViews, type ChartView } from './chart-data';
import type { TriggerLike } from './types';

/** How many rows of each sheet the page shows. */
export const PREVIEW_ROWS = 200;

export interface SheetPreview {
  name: string;
  /** Header row plus up to PREVIEW_ROWS data rows. */
  rows: unknown[][];
  totalRows: number;
}

export interface WorkbookView {
  sheets: SheetPreview[];
  triggers: TriggerLike[];
  /** Per sheet, the embedded charts resolved against the full sheets (not only the preview rows). */
  charts: Record<string, ChartView[]>;
}

/** What the page shows of the workbook: the first PREVIEW_ROWS rows of each sheet (a large sheet stays cheap to send) and the triggers. */
export function workbookView(
  exported: { sheets: Record<string, unknown[][]>; charts?: Record<string, ChartJson[]> },
  triggers: readonly TriggerLike[],
): WorkbookView {
  return {
    sheets: Object.entries(exported.sheets).map(([name, rows]) => ({
      name,
      rows: rows.slice(0, PREVIEW_ROWS + 1),
      totalRows: rows.length,
    })),
    triggers: triggers.map((t) => ({
      uid: t.uid,
      handlerFunction: t.handlerFunction,
      type: t.type,
      everyHours: t.everyHours,
      atHour: t.atHour,
    })),
    charts: chartViews(exported as Parameters<typeof chartViews>[0]),
  };
}
