/**
 * The Checks sheet as the integration tests read and edit it: its sheet model (edits by hand),
 * its rows as a tie-out says them (checked_at aside), a tie-out from scratch to compare with, and
 * a day's row beside the service's Daily P&L for that day (the emulator's truth).
 */
import { expect } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import type { Stack } from '../../dev/harness/index';
import { sheetTable } from './sync-support';

type Json = Record<string, unknown>;
type Table = unknown[][];

export function checksModel(stack: Stack): SheetModel {
  return (stack.runtime.workbook as unknown as Workbook).sheetByName('Checks') as SheetModel;
}

/** A Checks header's 0-based column. */
export const checksColumn = (stack: Stack, header: string): number =>
  (sheetTable(stack, 'Checks')[0] ?? []).indexOf(header);

/** The Checks rows as a tie-out says them: checked_at left out, and of the scope line its period and kind. */
export function comparable(table: Table): string[] {
  const [headers = [], ...rows] = table;
  const checkedAt = headers.indexOf('checked_at');
  const kind = headers.indexOf('kind');
  return rows.map((r) =>
    JSON.stringify(r[kind] === 'scope' ? r.slice(0, 2) : r.filter((_, i) => i !== checkedAt).map((v) => v ?? '')),
  );
}

/** The Checks sheet written from scratch by Checks → Run: the sheet deleted first. */
export async function fromScratch(stack: Stack): Promise<Table> {
  const workbook = stack.runtime.workbook as unknown as Workbook;
  workbook.deleteSheet(checksModel(stack).sheetId);
  const r = await stack.runtime.run('tieOutNow', [], { authMode: 'FULL' });
  expect(r.ok, r.error?.message).toBe(true);
  return sheetTable(stack, 'Checks');
}

/** A Checks day row, header → cell, and the service's Daily P&L of that day (truth/daily). */
export async function dayBesideTruth(stack: Stack, day: string): Promise<{ row: Json; truth: Json }> {
  const [headers = [], ...rows] = sheetTable(stack, 'Checks');
  const found = rows.find((r) => r[headers.indexOf('period')] === day && r[headers.indexOf('kind')] === 'day') ?? [];
  const row = Object.fromEntries(headers.map((h, i) => [String(h), found[i]]));
  const [truth] = ((await stack.control(`truth/daily?start_date=${day}&end_date=${day}`)) as { data: Json[] }).data;
  return { row, truth };
}
