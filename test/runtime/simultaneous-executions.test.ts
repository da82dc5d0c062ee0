/**
 * "Simultaneous executions: 30 / user" (developers.google.com/apps-script/guides/services/quotas):
 * the runtime does not start a user's 31st execution while 30 run; the playground's formula cells,
 * 200 of them recalculating on the real runtime, stay under it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIMULTANEOUS_EXECUTIONS_MESSAGE,
  SIMULTANEOUS_EXECUTIONS_PER_USER,
  type GasRuntime,
} from '../../dev/gas-runtime/index.js';
import { userEnteredWrite } from '../../dev/gas-runtime/spreadsheet/input.js';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook.js';
import { FormulaCells } from '../../dev/playground/formula-cells.js';
import type { PlaygroundRuntime } from '../../dev/playground/types.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  // Time limits count modelled time only: 200 cells on a loaded 2-core host must not time out on real time.
  runtime = await basicRuntime({ costModel: false, modelledTimeOnly: true });
});

afterAll(async () => {
  await runtime.close();
});

describe('30 simultaneous executions per user', () => {
  it("refuses the user's 31st with Google's error while 30 run; another user's still starts", async () => {
    const refusalsBefore = runtime.totals.quotaRefusals;
    // Started in one go: all 31 ask while the first 30 have not ended.
    const runs = Array.from({ length: SIMULTANEOUS_EXECUTIONS_PER_USER + 1 }, (_, i) => runtime.run('echo', [i]));
    const other = runtime.run('echo', ['other'], { user: 'other@example.com' });
    const results = await Promise.all(runs);
    expect(results.slice(0, 30).every((r) => r.ok)).toBe(true);
    expect(results[30]).toMatchObject({ ok: false, error: { message: SIMULTANEOUS_EXECUTIONS_MESSAGE } });
    expect(SIMULTANEOUS_EXECUTIONS_MESSAGE).toBe(
      'Service invoked too many times in a short time: exec maxSimultaneous. Try Utilities.sleep(1000) between calls.',
    );
    expect((await other).ok).toBe(true);
    expect(runtime.totals.quotaRefusals - refusalsBefore).toBe(1);
    // Once they ended, the next one starts.
    expect((await runtime.run('echo', ['later'])).value).toBe('later');
  });

  it('200 formula cells recalculating in the playground never hit it: at most 20 run at once, every cell answers', async () => {
    const workbook = runtime.workbook as unknown as Workbook;
    const sheet = workbook.sheets[0]!;
    for (let row = 1; row <= 200; row++) sheet.write(row, 1, userEnteredWrite(`=DOUBLE_IT(${row})`, workbook.timeZone));
    // The playground's runtime, counting how many of its executions run at once.
    let running = 0;
    let peak = 0;
    const counted = {
      ...(runtime as unknown as PlaygroundRuntime),
      run: async (...args: Parameters<PlaygroundRuntime['run']>) => {
        peak = Math.max(peak, ++running);
        try {
          return await runtime.run(...args);
        } finally {
          running -= 1;
        }
      },
    } as PlaygroundRuntime;
    const cells = new FormulaCells(
      counted,
      () => workbook,
      async () => ['DOUBLE_IT'],
    );
    const refusalsBefore = runtime.totals.quotaRefusals;
    await cells.settle(sheet);
    expect(peak).toBeLessThan(SIMULTANEOUS_EXECUTIONS_PER_USER);
    expect(peak).toBeGreaterThan(1);
    const answers = Array.from({ length: 200 }, (_, i) => cells.resultAt(sheet, i + 1, 1));
    expect(answers.filter((a) => a?.state !== 'value')).toEqual([]);
    expect(answers.map((a) => (a?.state === 'value' ? a.cells[0][0].value : null))).toEqual(
      Array.from({ length: 200 }, (_, i) => (i + 1) * 2),
    );
    expect(runtime.totals.quotaRefusals).toBe(refusalsBefore);
  }, 300_000);
});
