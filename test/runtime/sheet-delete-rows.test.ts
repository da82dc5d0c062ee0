/**
 * Sheet.deleteRows (developers.google.com/apps-script/reference/spreadsheet/sheet#deleterowsrowposition,-howmany):
 * the rows go and the rows below move up; rows outside the grid and deleting every non-frozen row
 * are refused with Sheets' messages. The add-on's Sync log trim calls it (sync-log-trim.test.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

const STRICT_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'strict');
let rt: GasRuntime;

beforeAll(async () => {
  rt = await createRuntime({ distDir: STRICT_DIST, user: { email: 'finance@example.com' }, costModel: false });
});

afterAll(async () => {
  await rt?.close();
});

async function deleteRows(name: string, rows: number, frozen: number, first: number, count: number): Promise<unknown> {
  const result = await rt.run('deleteRowsCase', [name, rows, frozen, first, count]);
  expect(result.error).toBeUndefined();
  return result.value;
}

describe('Sheet.deleteRows', () => {
  it('removes the rows, moves the rows below up and shrinks the grid', async () => {
    expect(await deleteRows('a', 6, 1, 2, 3)).toEqual({ values: [1, 5, 6], maxRows: 3 });
  });

  it('refuses rows outside the grid', async () => {
    expect(await deleteRows('b', 4, 0, 3, 5)).toEqual({ error: 'Those rows are out of bounds.', maxRows: 4 });
    expect(await deleteRows('c', 4, 0, 0, 1)).toEqual({ error: 'Those rows are out of bounds.', maxRows: 4 });
  });

  it('refuses deleting every row that is not frozen', async () => {
    expect(await deleteRows('d', 4, 1, 2, 3)).toEqual({
      error: 'Sorry, it is not possible to delete all non-frozen rows.',
      maxRows: 4,
    });
  });
});
