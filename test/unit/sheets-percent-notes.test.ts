/**
 * Header notes that name a percent threshold name it in the units the cell holds: a percent
 * column holds Sheets' fraction shown as a percent (percent.ts: 1 shown 100.00%), so "below 100"
 * reads as a bare number a filter or COUNTIF(<100) would take literally; "below 100%" does not.
 */
import { describe, expect, it } from 'vitest';
import { COST_STATUS_NOTE, LINE_COST_STATUS_NOTE } from '../../src/server/sheets/cost-status';
import * as schemas from '../../src/server/sheets/schema';
import type { TableSchema } from '../../src/server/sheets/schema';

const THRESHOLD_IN_POINTS =
  /\b(?:below|above|under|over|less than|more than|at least|at most)\s+\d+(?:\.\d+)?(?!\s*%|\.\d|\d)/i;

const tables = Object.entries(schemas).filter(
  (entry): entry is [string, TableSchema] =>
    typeof entry[1] === 'object' && entry[1] !== null && 'columns' in entry[1] && 'sheetName' in entry[1],
);

describe('percent thresholds in header notes', () => {
  it('every column note naming a threshold of a percent says %', () => {
    expect(tables.length).toBeGreaterThan(5);
    const offending = tables.flatMap(([, schema]) =>
      schema.columns
        .filter(
          (c) =>
            c.note !== undefined &&
            (c.kind === 'pct' || /pct|percent|margin/i.test(c.note)) &&
            THRESHOLD_IN_POINTS.test(c.note),
        )
        .map((c) => `${schema.sheetName}.${c.header}: ${c.note!.match(THRESHOLD_IN_POINTS)![0]}`),
    );
    expect(offending).toEqual([]);
  });

  it("cogs_coverage_pct's and cost_status's notes say below 100%", () => {
    const coverage = schemas.ORDERS.columns.find((c) => c.header === 'cogs_coverage_pct')!.note!;
    for (const note of [coverage, COST_STATUS_NOTE]) {
      expect(note).toMatch(/below 100%/);
      expect(note).not.toMatch(THRESHOLD_IN_POINTS);
    }
    expect(LINE_COST_STATUS_NOTE).not.toMatch(THRESHOLD_IN_POINTS);
  });
});
