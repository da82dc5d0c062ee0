/** replaceWorkbook: the bench's approaches each write their own workbook over the same stores. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await basicRuntime();
});
afterAll(async () => {
  await runtime.close();
});

it('puts an empty workbook with the same id in place of the document, and can put the old one back', async () => {
  expect((await runtime.run('writeGrid', [2, 3])).ok).toBe(true);
  const first = runtime.workbook;
  const replaced = runtime.replaceWorkbook();
  expect(replaced).toBe(first);
  expect(runtime.workbook).not.toBe(first);
  expect(runtime.workbook.id).toBe(first.id);
  expect(Object.keys(runtime.exportJson().sheets)).not.toContain('Data');
  expect((await runtime.run('writeGrid', [1, 1])).ok).toBe(true);
  runtime.replaceWorkbook(first);
  expect(runtime.exportJson().sheets.Data).toEqual([
    [0, 1, 2],
    [3, 4, 5],
  ]);
});
