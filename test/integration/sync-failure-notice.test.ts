/**
 * Failure notices: a scheduled run that fails in a way only a person can fix e-mails
 * the user who opted in — once in 24 hours per problem (not once per calendar day: runs at 23:00
 * and 00:00 would send two), from and to their own account, with the
 * add-on's message and no token; nothing when nobody opted in, after opting out, or for a
 * failure the next run fixes by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetModel } from '../../dev/gas-runtime/spreadsheet/sheet-model';
import type { Workbook } from '../../dev/gas-runtime/spreadsheet/workbook';
import { startStack, type Stack } from '../../dev/harness/index';
import { advanceToStoreHour, sheetTable } from './sync-support';

const USER = 'user@example.com';
let stack: Stack;

const trigger = () => stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync')!;
const fire = async () => (await stack.runtime.fireTrigger(trigger().uid)).value as { outcome: string; message: string };
const ordersSheet = () => (stack.runtime.workbook as unknown as Workbook).sheetByName('Orders') as SheetModel;

beforeAll(async () => {
  stack = await startStack({ orders: 120, seed: 41, plan: 'plus' });
  await stack.connect();
  expect((await stack.runtime.run('setSchedule', [{ mode: 'hourly' }])).ok).toBe(true);
  expect((await fire()).outcome).toBe('ok');
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('failure e-mails for scheduled runs', () => {
  it('nobody opted in: a failing run sends nothing', async () => {
    // An Orders sheet set up before the column tags (column-tags.ts): its headings are still checked,
    // so a renamed one is a stop (a tagged sheet follows the rename).
    const workbook = stack.runtime.workbook as unknown as Workbook;
    workbook.developerMetadata = workbook.developerMetadata.filter(
      (m) => !(m.location.type === 'COLUMN' && m.location.sheetId === ordersSheet().sheetId),
    );
    const column = sheetTable(stack, 'Orders')[0].indexOf('net_profit') + 1;
    ordersSheet().write(1, column, { value: 'profit' });
    expect((await fire()).outcome).toBe('error');
    expect(stack.runtime.mail).toHaveLength(0);
  });

  it('opted in: one e-mail to the user with what to do, at most once a day for the same problem', async () => {
    // 23:00: the run an hour later falls on the next calendar day, and still sends nothing (a rolling day).
    await advanceToStoreHour(stack, 23);
    const optIn = await stack.runtime.run('setFailureNotices', [true]);
    expect(optIn.value).toEqual({ on: true, email: USER });
    const failed = await fire();
    expect(failed.outcome).toBe('error');
    expect(stack.runtime.mail).toHaveLength(1);
    const [sent] = stack.runtime.mail;
    expect(sent.from).toBe(USER);
    expect(sent.to).toEqual([USER]);
    expect(sent.subject).toMatch(/scheduled sync .* needs you/);
    // Fixed words per kind, not the run's message (it quotes the heading an editor typed, which could carry a phishing line).
    expect(failed.message).toContain('"profit"');
    expect(sent.body).not.toContain('"profit"');
    expect(sent.body).toMatch(/Rename it back to "net_profit"/);

    await stack.advanceClocks(3_600_000);
    expect((await fire()).outcome).toBe('error');
    expect(stack.runtime.mail).toHaveLength(1);

    await stack.advanceClocks(24 * 3_600_000);
    expect((await fire()).outcome).toBe('error');
    expect(stack.runtime.mail).toHaveLength(2);
  }, 120_000);

  it('another problem the same day gets its own e-mail; no token or secret is in any of them', async () => {
    const column = sheetTable(stack, 'Orders')[0].indexOf('profit') + 1;
    ordersSheet().write(1, column, { value: 'net_profit' });
    await stack.control('grants/revoke', {});
    const revoked = await fire();
    expect(revoked.outcome).toBe('error');
    expect(stack.runtime.mail).toHaveLength(3);
    expect(stack.runtime.mail[2].body).toMatch(/Reconnect/);
    const issued = (await stack.control('issued-tokens')) as { access_tokens?: string[]; refresh_tokens?: string[] };
    const secrets = [
      ...(issued.access_tokens ?? []),
      ...(issued.refresh_tokens ?? []),
      String(stack.runtime.properties.script.get('MA_CLIENT_SECRET')),
    ];
    expect(secrets.length).toBeGreaterThan(2);
    for (const m of stack.runtime.mail)
      for (const secret of secrets) expect(`${m.subject}\n${m.body}`).not.toContain(secret);
  }, 120_000);

  it('opting out stops them', async () => {
    expect((await stack.runtime.run('setFailureNotices', [false])).value).toEqual({ on: false, email: null });
    const state = (await stack.runtime.run('getSidebarState', [])).value as { failureNotices?: { on: boolean } };
    expect(state.failureNotices).toEqual({ on: false, email: null });
  });
});
