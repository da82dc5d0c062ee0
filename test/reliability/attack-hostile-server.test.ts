/**
 * Attack (role 3, a hostile or broken server): a loopback front between the add-on and the
 * emulator (support/hostile-front.ts) rewrites chosen answers. Each test asserts the SAFE
 * behaviour; a failing test is a finding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sidebarConnection } from '../../dev/harness/inspect';
import { sheetTable } from '../integration/sync-support';
import { deepArrayText, stackBehindHostileFront, type FrontedStack } from './support/hostile-front';
import { runUntilSettled, tokensIn } from './support/verdict';

const HOUR_MS = 3_600_000;
let fronted: FrontedStack | undefined;

afterEach(async () => {
  await fronted?.close();
  fronted = undefined;
});

describe('one hostile Daily P&L record is skipped on its own', () => {
  it('a day whose net_profit is nested 20,000 deep is skipped on its own: every run ends ok and the other days are written', async () => {
    const { s, f } = (fronted = await stackBehindHostileFront());
    let poisoned = 0;
    f.rewrite = (req, status, body) => {
      if (!req.path.startsWith('/api/v1/profitability/daily') || status !== 200) return null;
      const json = JSON.parse(body) as { data?: Array<Record<string, unknown>> };
      if (!Array.isArray(json.data) || json.data.length === 0) return null;
      poisoned++;
      json.data[0]!.net_profit = '__DEEP__';
      return JSON.stringify(json).replace('"__DEEP__"', deepArrayText(20_000));
    };
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const end = await runUntilSettled(s);
      runs.push(`${end.outcome}: ${end.message}`);
      await s.advanceClocks(HOUR_MS);
    }
    expect(poisoned).toBeGreaterThan(0);
    // Today: every run stops with "Maximum call stack size exceeded" and the Daily P&L stays empty for ever.
    expect(
      runs.filter((r) => !r.startsWith('ok')),
      runs.join('\n'),
    ).toEqual([]);
    const daily = sheetTable(s, 'Daily P&L');
    expect(daily.length, 'Daily P&L rows (header included)').toBeGreaterThan(300);
    expect(await tokensIn(s)).toEqual([]);
  }, 240_000);
});

describe('a refreshed token granting fewer scopes is not shown Connected', () => {
  it('a refresh answer granting fewer scopes than asked for does not leave the connection shown Connected with the old scopes', async () => {
    const { s, f } = (fronted = await stackBehindHostileFront());
    let narrowed = 0;
    f.rewrite = (req, status, body) => {
      if (
        req.method !== 'POST' ||
        !req.path.startsWith('/api/auth/oauth2/token') ||
        !req.body.includes('grant_type=refresh_token') ||
        status !== 200
      )
        return null;
      const json = JSON.parse(body) as Record<string, unknown>;
      narrowed++;
      json.scope = 'store:read';
      return JSON.stringify(json);
    };
    await s.advanceClocks(2 * HOUR_MS);
    // Any execution that needs the token renews it (here the connection check a trigger makes).
    await s.runtime.run('checkApiConnection', ['trigger'], { authMode: 'FULL' });
    expect(narrowed).toBe(1);
    const seen = await sidebarConnection(s.runtime);
    const record = JSON.parse(s.runtime.properties.document.get('ma.connection') ?? '{}') as { scopes?: string[] };
    // At Connect the same grant shows missing_scope (token-endpoint-trust.test.ts); after a refresh it is ignored.
    expect({ state: seen.state, scopes: record.scopes }).not.toEqual({
      state: 'connected',
      scopes: expect.arrayContaining(['orders:read', 'products:read', 'profitability:read']),
    });
    expect(await tokensIn(s)).toEqual([]);
  }, 120_000);
});
