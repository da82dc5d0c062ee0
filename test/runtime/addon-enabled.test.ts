/**
 * Where the add-on is enabled (dev/gas-runtime/addon-enablement.ts, after
 * developers.google.com/workspace/add-ons/concepts/editor-auth-lifecycle and
 * developers.google.com/workspace/add-ons/editors/sheets): its custom functions work only in a
 * spreadsheet where it is enabled — elsewhere the cell shows #NAME?, "Unknown function" — and
 * onOpen runs in AuthMode.NONE there, LIMITED where it is enabled. A copy starts not enabled; a
 * FULL execution in it (a menu item, the sidebar) enables it. AuthMode.NONE reaches no service
 * that needs authorization (reference/script/auth-mode).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'contexts');
const OWNER = 'owner@example.com';
const COPIER = 'copier@example.com';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await createRuntime({ distDir: DIST, user: { email: OWNER }, costModel: false });
});
afterAll(async () => {
  await runtime.close();
});

describe('custom functions where the add-on is not enabled', () => {
  it('a copy\'s formula cell does not run: #NAME? "Unknown function"; after a FULL execution in the copy it runs', async () => {
    expect((await runtime.run('SHEET_ID', [], { authMode: 'CUSTOM_FUNCTION' })).value).toBe(runtime.workbook.id);
    const copyId = runtime.makeCopy(COPIER);
    const executions = runtime.totals.executions;
    const cell = await runtime.run('SHEET_ID', [], {
      authMode: 'CUSTOM_FUNCTION',
      user: COPIER,
      spreadsheetId: copyId,
    });
    expect(cell.ok).toBe(false);
    expect(cell.error).toEqual({ name: '#NAME?', message: "Unknown function: 'SHEET_ID'." });
    expect(cell.counts.serviceCalls).toBe(0);
    expect(runtime.totals.executions).toBe(executions);
    expect(runtime.isAddOnEnabled(copyId)).toBe(false);

    // onOpen (NONE) and formula cells enable nothing; the copier using the add-on there (FULL) does.
    await runtime.openDocument({ user: COPIER, spreadsheetId: copyId });
    expect(runtime.isAddOnEnabled(copyId)).toBe(false);
    expect((await runtime.run('spreadsheetId', [], { user: COPIER, spreadsheetId: copyId })).value).toBe(copyId);
    expect(runtime.isAddOnEnabled(copyId)).toBe(true);
    const after = await runtime.run('SHEET_ID', [], {
      authMode: 'CUSTOM_FUNCTION',
      user: COPIER,
      spreadsheetId: copyId,
    });
    expect(after.ok, after.error?.message).toBe(true);
    expect(after.value).toBe(copyId);
  });

  it('a spreadsheet where the user has the add-on installed but not enabled (addOnEnabled: false): the same', async () => {
    const fresh = await createRuntime({ distDir: DIST, user: { email: OWNER }, costModel: false, addOnEnabled: false });
    try {
      const cell = await fresh.run('SHEET_ID', [], { authMode: 'CUSTOM_FUNCTION' });
      expect(cell.error).toEqual({ name: '#NAME?', message: "Unknown function: 'SHEET_ID'." });
      expect((await fresh.openDocument()).value).toBe('NONE');
      expect((await fresh.run('spreadsheetId')).ok).toBe(true);
      expect((await fresh.run('SHEET_ID', [], { authMode: 'CUSTOM_FUNCTION' })).value).toBe(fresh.workbook.id);
      expect((await fresh.openDocument()).value).toBe('LIMITED');
    } finally {
      await fresh.close();
    }
  });
});

describe("onOpen's auth mode follows the document's state", () => {
  it('NONE in a copy not yet used, LIMITED once used there and in the enabled original; the menu is built in both', async () => {
    const copyId = runtime.makeCopy(COPIER);
    const none = await runtime.openDocument({ user: COPIER, spreadsheetId: copyId });
    expect(none.ok, none.error?.message).toBe(true);
    expect(none.value).toBe('NONE');
    expect(runtime.ui.menus.find((m) => m.addon)?.items).toEqual([
      { kind: 'item', caption: 'Open', functionName: 'spreadsheetId' },
    ]);
    expect((await runtime.openDocument()).value).toBe('LIMITED');
    await runtime.run('spreadsheetId', [], { user: COPIER, spreadsheetId: copyId });
    expect((await runtime.openDocument({ user: OWNER, spreadsheetId: copyId })).value).toBe('LIMITED');
  });

  it('AuthMode.NONE refuses services that need authorization (properties, UrlFetch); LIMITED reads properties', async () => {
    await runtime.run('setDocumentValue', ['carried', 'yes']);
    const properties = await runtime.run('onOpenReadingProperties', [], { authMode: 'NONE' });
    expect(properties.ok).toBe(false);
    expect(properties.error?.message).toBe(
      'You do not have permission to call PropertiesService.getDocumentProperties',
    );
    const fetch = await runtime.run('onOpenFetching', [], { authMode: 'NONE' });
    expect(fetch.error?.message).toBe('You do not have permission to call UrlFetchApp.fetch');
    expect(fetch.counts.requests).toEqual([]);
    expect((await runtime.run('onOpenReadingProperties', [], { authMode: 'LIMITED' })).value).toBe('yes');
  });
});
