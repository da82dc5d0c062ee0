/** The add-on menu and sidebar entry points, run from the built bundle in the local runtime. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIDEBAR_CALLS } from '../../src/contract/server-api';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index';
import { bundleBuilt, DIST } from './sidebar-session';

describe.skipIf(!bundleBuilt)('menu: onOpen / onInstall / showSidebar (built bundle, local runtime)', () => {
  let runtime: GasRuntime;
  beforeAll(async () => {
    runtime = await createRuntime({ distDir: DIST });
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it('onOpen in AuthMode.NONE builds the add-on menu and touches no properties', async () => {
    const result = await runtime.run('onOpen', [{ authMode: 'NONE' }], { authMode: 'NONE' });
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(Object.keys(result.counts.byMethod).filter((m) => /Properties|Cache/.test(m))).toEqual([]);
    const menu = runtime.ui.menus.find((m) => m.addon);
    expect(menu?.items).toEqual([
      { kind: 'item', caption: 'Open sidebar', functionName: 'showSidebar' },
      { kind: 'item', caption: 'Sync now', functionName: 'syncNowFromMenu' },
      { kind: 'item', caption: 'Insert P&L dashboard', functionName: 'insertDashboard' },
      { kind: 'item', caption: 'Refresh formulas', functionName: 'refreshFormulasFromMenu' },
      { kind: 'item', caption: "Check the add-on's environment", functionName: 'showEnvironmentCheck' },
      { kind: 'item', caption: 'Help', functionName: 'showHelp' },
    ]);
  });

  it('onInstall adds the same menu (it calls onOpen)', async () => {
    const before = runtime.ui.menus.length;
    const result = await runtime.run('onInstall', [{ authMode: 'LIMITED' }], { authMode: 'LIMITED' });
    expect(result.ok).toBe(true);
    expect(runtime.ui.menus.filter((m) => m.addon)).toHaveLength(Math.max(1, before));
  });

  it('every menu item names a global of the bundle', () => {
    const code = readFileSync(path.join(DIST, 'Code.js'), 'utf8');
    for (const item of runtime.ui.menus.find((m) => m.addon)?.items ?? []) {
      if (item.kind === 'item') expect(code).toMatch(new RegExp(`^function ${item.functionName}\\(`, 'm'));
    }
  });

  it('every function the sidebar calls is a top-level global of dist/Code.js', () => {
    const code = readFileSync(path.join(DIST, 'Code.js'), 'utf8');
    for (const name of SIDEBAR_CALLS) expect(code).toMatch(new RegExp(`^function ${name}\\(`, 'm'));
  });

  it('showSidebar shows the built Sidebar.html titled Merchant Analytics', async () => {
    const result = await runtime.run('showSidebar', [], { authMode: 'FULL' });
    expect(result.ok).toBe(true);
    const sidebar = runtime.ui.lastSidebar;
    expect(sidebar?.title).toBe('Merchant Analytics');
    expect(sidebar?.html).toBe(readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8'));
  });

  it('without script properties the sidebar state says "not configured" with the operator action, not an exception', async () => {
    const result = await runtime.run('getSidebarState', [], { authMode: 'FULL' });
    expect(result.ok).toBe(true);
    expect(result.value).toMatchObject({
      connection: { state: 'not_configured', store: null, problem: { action: 'configure' } },
    });
  });

  it('setSchedule refuses a bad hour with a clear message and creates no trigger', async () => {
    const result = await runtime.run('setSchedule', [{ mode: 'daily', hour: 25 }], { authMode: 'FULL' });
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/hour from 0 to 23/);
    expect(runtime.triggers).toHaveLength(0);
  });
});

if (!bundleBuilt)
  describe('menu (built bundle)', () => it.skip('dist/Code.js is missing: run npm run build first', () => undefined));
