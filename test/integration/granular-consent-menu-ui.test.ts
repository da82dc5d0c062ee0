/**
 * Granular consent: the user withheld script.container.ui ("show its sidebar and menu"). A menu item
 * runs in FULL and is not a cell: Sync now, Insert P&L dashboard and Refresh formulas need nothing
 * from that scope (Sync now's toast is the spreadsheet's, the spreadsheets scope) and do their work;
 * Help and the environment check show a dialog, so they ask Google for the scope (requireScopes)
 * rather than end on "You do not have permission to call SpreadsheetApp.getUi". A cell stays a cell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';
import { compareWithTruth, syncUntilCaughtUp } from './sync-support';

const USER = 'user@example.com';
const UI = 'https://www.googleapis.com/auth/script.container.ui';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ orders: 10, seed: 4 });
  await stack.connect();
  await syncUntilCaughtUp(stack);
}, 120_000);
afterAll(async () => stack?.close());

describe('script.container.ui withheld', () => {
  it('Sync now syncs and says so in a toast (typed into a cell it is still refused); the sheets then equal the truth', async () => {
    await stack.control('orders', { count: 3 });
    stack.runtime.consent.withdraw(USER, UI);
    try {
      const toasts = stack.runtime.ui.toasts.length;
      const r = await stack.runtime.run('syncNowFromMenu');
      expect(r.error?.message).toBeUndefined();
      expect(r.counts.requests.length, 'requests to the API').toBeGreaterThan(0);
      expect(stack.runtime.ui.toasts.length).toBeGreaterThan(toasts);
      // Typed into a cell it is still refused as one.
      const cell = await stack.runtime.run('syncNowFromMenu', [], { authMode: 'CUSTOM_FUNCTION' });
      expect(cell.error?.message).toMatch(/^syncNowFromMenu cannot run in a cell/);
    } finally {
      stack.runtime.consent.grant(USER);
    }
    await syncUntilCaughtUp(stack);
    expect((await compareWithTruth(stack)).mismatches).toEqual([]);
  }, 120_000);

  for (const name of ['insertDashboard', 'refreshFormulasFromMenu']) {
    it(`${name} does its work instead of calling the menu a cell`, async () => {
      stack.runtime.consent.withdraw(USER, UI);
      try {
        const r = await stack.runtime.run(name);
        expect(r.error?.message).toBeUndefined();
      } finally {
        stack.runtime.consent.grant(USER);
      }
    });
  }

  for (const name of ['showHelp', 'showEnvironmentCheck']) {
    it(`${name} asks Google for the permission to show its dialog`, async () => {
      stack.runtime.consent.withdraw(USER, UI);
      try {
        const r = await stack.runtime.run(name);
        expect(r.error?.message).toBe('Authorization is required to perform that action.');
        expect(stack.runtime.ui.authorizationPrompts.at(-1)).toMatchObject({ user: USER, scopes: [UI] });
      } finally {
        stack.runtime.consent.grant(USER);
      }
    });
  }
});
