/**
 * Formula cells between scheduled runs (formula cells that never time out). A custom
 * function never renews the access token (spec 5.7 rotates the refresh token on every use, and a
 * cell cannot save the new one); the scheduled run renews it and leaves it where
 * formulas read it, with its document or without it (Google may start an add-on's clock trigger
 * without the document: apps-script-facts.md). The token lives an hour (spec 8.4), as long as the
 * wait for the next run: in the minute or so before that run a cell cannot answer, and then it
 * says when it will.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import type { ExecutionResult } from '../../dev/gas-runtime/index';
import { addDays } from '../../bench/drivers';
import { scheduledRun, scheduleTrigger, syncUntilCaughtUp } from './sync-support';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface StoredToken {
  access_token?: string;
  refresh_token?: string;
}

let stack: Stack;
let today: string;
let cellNo = 0;

/** A PROFIT_SUMMARY cell no earlier cell computed (its answer is not shared), as the sheet runs it. */
async function cell(): Promise<ExecutionResult> {
  cellNo++;
  return stack.runtime.run('PROFIT_SUMMARY', [addDays(today, -30 - cellNo), addDays(today, -cellNo), 'net_profit'], {
    authMode: 'CUSTOM_FUNCTION',
  });
}

function answered(r: ExecutionResult): boolean {
  return r.ok && typeof (r.value as unknown[][])[0][0] === 'number';
}

function storedToken(): StoredToken {
  const user = stack.runtime.properties.user.all();
  const key = Object.keys(user).find((k) => k.startsWith('oauth2.merchant-analytics.'));
  return JSON.parse(user[key!]!) as StoredToken;
}

/** HH:mm of `at` in the spreadsheet's zone (the schedule's). */
function clockText(at: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: stack.runtime.workbook.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(at));
}

beforeAll(async () => {
  stack = await startStack({ orders: 300, seed: 1, modelledTimeOnly: true });
  await stack.connect();
  await scheduleTrigger(stack);
  await syncUntilCaughtUp(stack);
  today = ((await stack.truth('store')) as { today: string }).today;
}, 300_000);

afterAll(async () => {
  await stack?.close();
});

describe('formula cells between scheduled runs', () => {
  let runAt = 0;
  let run: ExecutionResult;

  it('a scheduled run without its document: cells answer for the hour after it, and no store every user shares holds a token', async () => {
    await stack.advanceClocks(HOUR);
    runAt = stack.runtime.clock.now();
    run = await scheduledRun(stack, 'trigger-without-document');
    expect(run.ok, run.error?.message).toBe(true);
    await stack.advanceClocks(30 * MINUTE);
    const at30 = await cell();
    expect(answered(at30), at30.error?.message ?? JSON.stringify(at30.value)).toBe(true);
    await stack.advanceClocks(28 * MINUTE);
    const at58 = await cell();
    expect(answered(at58), at58.error?.message ?? JSON.stringify(at58.value)).toBe(true);
    // What the run left for formulas is the renewed access token, never the refresh token, in no store every user shares.
    const token = storedToken();
    const everyUsers = JSON.stringify({
      script: stack.runtime.properties.script.all(),
      document: stack.runtime.properties.document.all(),
    });
    const user = JSON.stringify(stack.runtime.properties.user.all());
    expect(everyUsers).not.toContain(token.access_token!);
    expect(everyUsers).not.toContain(token.refresh_token!);
    // Only the library's own record holds the refresh token.
    expect(user.split(token.refresh_token!).length - 1).toBe(1);
  });

  it('in the last seconds before the next run a cell says when it works again: the next run, about an hour after this one', async () => {
    await stack.advanceClocks(90_000);
    const late = await cell();
    expect(late.ok).toBe(false);
    const said = /the next scheduled sync renews the access \(Next run: about (\d\d:\d\d)/.exec(
      late.error?.message ?? '',
    );
    expect(said, late.error?.message).not.toBeNull();
    // The run's start, a moment after the trigger fired, plus the hour; rounded up to the minute.
    const due = Math.ceil((runAt + HOUR) / MINUTE) * MINUTE;
    expect([clockText(due), clockText(due + MINUTE)]).toContain(said![1]);
  });
});
