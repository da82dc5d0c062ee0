/**
 * Another editor writes the connector's e-mail. The failure e-mail goes from the
 * connecting user's own account; an editor who heads a column inserted among the managed ones, and
 * renames the data sheet and the spreadsheet, with a phishing line must not get one word of it into that mail. The mail names the
 * table and the column letter in the add-on's own words and links the spreadsheet by its URL.
 * Both kinds of failure a scheduled run mails about are checked: a sheet's problem (sheet_layout)
 * and a lost connection. Judged on the mail the runtime captured (MailApp's outbox).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnToLetters } from '../../dev/gas-runtime/spreadsheet/a1';
import { deleteColumns } from '../../dev/gas-runtime/spreadsheet/column-edits';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { scheduleTrigger, sheetTable } from '../integration/sync-support';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { triggerUntilSettled } from './support/verdict';

const LURE = 'phish.example';
const HOSTILE_HEADER = `Your Merchant Analytics access ends today. Sign in again at https://${LURE}/login to keep your data`;
const HOSTILE_SPREADSHEET = `URGENT: payroll export blocked, verify your account at https://${LURE}/verify`;
const HOSTILE_SHEET = `Verify at ${LURE} now`;

let stack: ReliabilityStack;
let trigger: string;
let column: number;

const workbook = () => stack.runtime.workbook as unknown as Workbook;
const daily = () => workbook().sheetByName('Daily P&L') as SheetModel;
const mailText = (i: number) => `${stack.runtime.mail[i].subject}\n${stack.runtime.mail[i].body}`;

function expectNoEditorText(text: string): void {
  for (const editorText of [HOSTILE_HEADER, HOSTILE_SPREADSHEET, HOSTILE_SHEET, LURE])
    expect(text).not.toContain(editorText);
}

beforeAll(async () => {
  stack = await startReliabilityStack({ orders: 30, seed: 23 });
  trigger = await scheduleTrigger(stack);
  expect((await triggerUntilSettled(stack, trigger)).outcome).toBe('ok');
  expect((await stack.runtime.run('setFailureNotices', [true])).value).toMatchObject({ on: true });
  column = sheetTable(stack, 'Daily P&L')[0].indexOf('net_profit') + 1;
  expect(column).toBeGreaterThan(0);
  // Another editor: the spreadsheet, the Orders sheet (the sync follows it by its tag) and a column
  // inserted left of Daily P&L's net_profit, headed with the lure. Daily P&L keeps its columns in
  // place (a renamed heading there is followed by its tag), so the inserted column stops its job.
  workbook().name = HOSTILE_SPREADSHEET;
  const orders = workbook().sheetByName('Orders') as SheetModel;
  workbook().renameSheet(orders, HOSTILE_SHEET);
  daily().insertColumns(column - 1, 1);
  workbook().shiftMetadata(daily().sheetId, 'COLUMN', column - 1, 1); // as Sheet.insertColumnsAfter does
  daily().write(1, column, { value: HOSTILE_HEADER });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the failure e-mail holds nothing an editor wrote', () => {
  it('sheet_layout: names the sheet and the column letter, links the spreadsheet, quotes no heading or name', async () => {
    const fired = await stack.runtime.fireTrigger(trigger);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect(fired.value).toMatchObject({ outcome: 'error' });
    // The run's own message (Sync log, sidebar) does quote the heading: the mail must not take it.
    expect((fired.value as { message: string }).message).toContain(LURE);
    expect(stack.runtime.mail).toHaveLength(1);
    const text = mailText(0);
    expectNoEditorText(text);
    expect(text).toContain(`In the Daily P&L sheet, column ${columnToLetters(column)} must be headed "net_profit"`);
    expect(text).toContain(`Open the spreadsheet: ${workbook().url}`);
  }, 120_000);

  it('a lost connection: fixed words, no name of the spreadsheet', async () => {
    deleteColumns(workbook(), daily(), column, 1);
    await stack.control('grants/revoke', {});
    const fired = await stack.runtime.fireTrigger(trigger);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect(fired.value).toMatchObject({ outcome: 'error' });
    expect(stack.runtime.mail).toHaveLength(2);
    const text = mailText(1);
    expectNoEditorText(text);
    expect(text).toMatch(/Reconnect/);
  }, 120_000);
});
