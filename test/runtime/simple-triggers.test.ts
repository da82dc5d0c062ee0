/**
 * Simple triggers (developers.google.com/apps-script/guides/triggers, "Restrictions"): they "cannot run
 * for longer than 30 seconds", not the 6 minutes of other executions; and in AuthMode.LIMITED (a simple
 * onOpen where the add-on is enabled) Session tells no e-mail (workspace/add-ons/concepts/editor-auth-lifecycle,
 * the stricter reading).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, TIME_LIMIT_MESSAGE, type GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime';

const STRICT_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'strict');
const USER = 'finance@example.com';
let rt: GasRuntime;

beforeAll(async () => {
  rt = await createRuntime({ distDir: STRICT_DIST, user: { email: USER }, modelledTimeOnly: true, costModel: false });
});

afterAll(async () => {
  await rt?.close();
});

describe('simple triggers get 30 seconds', () => {
  it('ends an onOpen that works past 30 s with the time-limit error', async () => {
    const open = await rt.run('onOpen', [], { authMode: 'LIMITED', event: { authMode: 'LIMITED', workMs: 31_000 } });
    expect(open.timedOut).toBe(true);
    expect(open.error?.message).toBe(TIME_LIMIT_MESSAGE);
  });

  it('lets an onOpen finish within 30 s, and the same work from a menu take longer', async () => {
    expect(
      (await rt.run('onOpen', [], { authMode: 'LIMITED', event: { authMode: 'LIMITED', workMs: 29_000 } })).value,
    ).toBe('menu built');
    const menu = await rt.run('buildMenuSlowly', [31_000]);
    expect(menu.timedOut).toBe(false);
    expect(menu.value).toBe('menu built');
  });
});

describe('Session in AuthMode.LIMITED', () => {
  it('gives a blank e-mail for the active user; FULL gives the user', async () => {
    // The basic fixture's manifest lists userinfo.email, which Session needs at all.
    const basic = await basicRuntime();
    try {
      expect(((await basic.run('whoAmI', [], { authMode: 'LIMITED' })).value as { active: string }).active).toBe('');
      expect(((await basic.run('whoAmI', [], { authMode: 'FULL' })).value as { active: string }).active).toBe(USER);
    } finally {
      await basic.close();
    }
  });
});
