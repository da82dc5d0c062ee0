/**
 * A sheet in points too large for one request (Google's recommended 2 MB, the strict runtime's
 * 2,000,000 bytes) is upgraded in several batchUpdates, each within the limit and each carrying
 * the markers of the rows it converts; a run killed after any of them leaves a sheet whose next
 * upgrade converts exactly the rest: every number divided once, every row formatted once, and
 * the sheet left with its tag alone (the markers deleted with it).
 */
import { describe, expect, it } from 'vitest';
import { SHEETS_PAYLOAD_LIMIT, sheetsPayloadBytes } from '../../dev/gas-runtime/spreadsheet/sheets-payload-limit';
import {
  doneRows,
  PERCENT_DONE_KEY,
  PERCENT_METADATA_KEY,
  percentColumns,
  percentUpgradeBatches,
} from '../../src/server/sheets/percent-upgrade';
import { ORDERS } from '../../src/server/sheets/schema';
import type { MetadataTag } from '../../src/server/sheets/sheet-snapshot';

type Request = GoogleAppsScript.Sheets.Schema.Request;
const SHEET = 42;
const ROWS = 40_001;
const columns = percentColumns(ORDERS);

/** Points with 2 decimals, some cells empty or text (a run of numbers is cut there). */
function sheetInPoints(): unknown[][][] {
  return columns.map((_, k) =>
    Array.from({ length: ROWS - 1 }, (_, i) => [
      i % 97 === 5 ? '' : i % 131 === 7 ? 'n/a' : ((i * 37 + k) % 20_000) / 100 - 50,
    ]),
  );
}

/** Applies the requests to the cells (values[k][row - 2][0]) as the API would; counts writes per cell and formats per row. */
function apply(values: unknown[][][], requests: Request[], writes: Map<string, number>, tags: MetadataTag[]): void {
  for (const r of requests) {
    if (r.updateCells) {
      const k = columns.indexOf(r.updateCells.start!.columnIndex!);
      r.updateCells.rows!.forEach((row, i) => {
        const at = r.updateCells!.start!.rowIndex! + i - 1;
        values[k][at] = [row.values![0].userEnteredValue!.numberValue];
        writes.set(`v${k}:${at}`, (writes.get(`v${k}:${at}`) ?? 0) + 1);
      });
    } else if (r.repeatCell) {
      const k = columns.indexOf(r.repeatCell.range!.startColumnIndex!);
      for (let at = r.repeatCell.range!.startRowIndex!; at < r.repeatCell.range!.endRowIndex!; at++)
        writes.set(`f${k}:${at}`, (writes.get(`f${k}:${at}`) ?? 0) + 1);
    } else if (r.createDeveloperMetadata) {
      const m = r.createDeveloperMetadata.developerMetadata!;
      tags.push({ id: tags.length + 1, key: m.metadataKey!, value: m.metadataValue ?? null });
    } else if (r.deleteDeveloperMetadata) {
      const key = r.deleteDeveloperMetadata.dataFilter!.developerMetadataLookup!.metadataKey;
      tags.splice(0, tags.length, ...tags.filter((t) => t.key !== key));
    }
  }
}

describe('a sheet in points past one request is upgraded in several, each within 2 MB', () => {
  const batches = percentUpgradeBatches(SHEET, ORDERS, sheetInPoints(), ROWS);

  it('cuts the upgrade into requests within the limit; markers in all but the last, the tag and their deletion in the last', () => {
    expect(batches.length).toBeGreaterThan(1);
    for (const requests of batches) expect(sheetsPayloadBytes({ requests })).toBeLessThanOrEqual(SHEETS_PAYLOAD_LIMIT);
    const keys = batches.map(
      (b) => new Set(b.flatMap((r) => r.createDeveloperMetadata?.developerMetadata?.metadataKey ?? [])),
    );
    expect(keys.slice(0, -1).every((k) => k.has(PERCENT_DONE_KEY) && !k.has(PERCENT_METADATA_KEY))).toBe(true);
    expect([...keys[keys.length - 1]]).toEqual([PERCENT_METADATA_KEY]);
    expect(batches[batches.length - 1].filter((r) => r.deleteDeveloperMetadata !== undefined)).toHaveLength(1);
  });

  it.each([1, 2, batches.length - 1])(
    'killed after %i request(s): the next upgrade converts every other cell, each once',
    (sent) => {
      const original = sheetInPoints();
      const values = sheetInPoints();
      const writes = new Map<string, number>();
      const tags: MetadataTag[] = [];
      for (const requests of batches.slice(0, sent)) apply(values, requests, writes, tags);
      const info = { sheetId: SHEET, title: 'Orders', rows: ROWS, columns: 80, tags };
      for (const requests of percentUpgradeBatches(SHEET, ORDERS, values, ROWS, doneRows(info)))
        apply(values, requests, writes, tags);
      const wrong: string[] = [];
      columns.forEach((_, k) => {
        original[k].forEach(([points], at) => {
          const numeric = typeof points === 'number';
          const value = numeric ? Number((points / 100).toPrecision(15)) : points;
          if (values[k][at][0] !== value) wrong.push(`column ${k} row ${at + 2}: ${String(values[k][at][0])}`);
          if (writes.get(`v${k}:${at}`) !== (numeric ? 1 : undefined)) wrong.push(`column ${k} row ${at + 2} written`);
          if (writes.get(`f${k}:${at + 1}`) !== 1) wrong.push(`column ${k} row ${at + 2} formatted`);
        });
      });
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(tags.map((t) => t.key)).toEqual([PERCENT_METADATA_KEY]);
    },
  );
});
