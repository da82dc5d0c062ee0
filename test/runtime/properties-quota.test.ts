/**
 * Google's daily Properties quota (developers.google.com/apps-script/guides/services/quotas,
 * "Properties read/write": 50,000 a day for consumer accounts, 500,000 for Google Workspace): every
 * read and write on a Properties store counts against the executing user, and past it the call
 * throws "Service invoked too many times for one day: properties." and changes nothing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRuntime,
  PROPERTIES_QUOTA_MESSAGE,
  type GasRuntime,
  type RuntimeOptions,
} from '../../dev/gas-runtime/index.js';

const STRICT_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'strict');
const USER = 'finance@example.com';
let runtime: GasRuntime | undefined;

async function strictRuntime(options: Partial<RuntimeOptions> = {}): Promise<GasRuntime> {
  runtime = await createRuntime({
    distDir: STRICT_DIST,
    user: { email: USER },
    startTime: Date.UTC(2026, 2, 2, 12),
    modelledTimeOnly: true,
    costModel: false,
    ...options,
  });
  return runtime;
}

/** Spends `calls` of the user's day on property reads and writes (the fixture's own calls, counted by the runtime). */
async function spend(rt: GasRuntime, calls: number, user = USER): Promise<{ done: number; error?: string }> {
  const result = await rt.run('propertyCalls', [calls / 2], { user });
  expect(result.error).toBeUndefined();
  return result.value as { done: number; error?: string };
}

/** The same spend straight on the ledger (fast): what a day of executions would have counted. */
function spentAlready(rt: GasRuntime, calls: number, user = USER): void {
  let taken = 0;
  for (let i = 0; i < calls; i++) if (rt.quotas.takePropertyCall(user)) taken++;
  expect(taken).toBe(calls);
}

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

describe('Properties reads and writes a day', () => {
  it("refuses the 50,001st call of a consumer user's day with Google's message, writing nothing", async () => {
    const rt = await strictRuntime();
    expect(await spend(rt, 49_998)).toEqual({ done: 49_998 });
    const last = await rt.run('propertyCalls', [2]);
    // setProperty('k', '0') and getProperty are calls 49,999 and 50,000; the next setProperty is refused.
    expect(last.value).toEqual({ done: 2, error: PROPERTIES_QUOTA_MESSAGE, kept: true });
    expect(PROPERTIES_QUOTA_MESSAGE).toBe('Service invoked too many times for one day: properties.');
    expect(last.counts.propertyCalls).toBe(2);
    expect(last.counts.quotaRefusals).toBe(1);
    expect(last.counts.quota).toMatchObject({ propertyCallsLast24h: 50_000, propertyCallAllowance: 50_000 });
    // The refused write changed nothing: the value is the one the last allowed write stored.
    expect(rt.properties.user.get('k')).toBe('0');
  });

  it("is each user's own, and frees 24 hours after the calls", async () => {
    const rt = await strictRuntime();
    spentAlready(rt, 50_000);
    expect((await spend(rt, 2)).error).toBe(PROPERTIES_QUOTA_MESSAGE);
    expect(await spend(rt, 2, 'editor@example.com')).toEqual({ done: 2 });
    rt.clock.advance(24 * 3_600_000 - 1_000);
    expect((await spend(rt, 2)).error).toBe(PROPERTIES_QUOTA_MESSAGE);
    rt.clock.advance(1_000);
    expect(await spend(rt, 2)).toEqual({ done: 2 });
  });

  it('allows 500,000 a day to a Google Workspace account', async () => {
    const rt = await strictRuntime({ account: 'workspace' });
    expect(rt.quotas.use(USER).propertyCallAllowance).toBe(500_000);
    spentAlready(rt, 499_998);
    expect(await spend(rt, 2)).toEqual({ done: 2 });
    expect((await spend(rt, 2)).error).toBe(PROPERTIES_QUOTA_MESSAGE);
  });

  it('does not count handing out a store (PropertiesService.get…Properties)', async () => {
    const rt = await strictRuntime();
    const result = await rt.run('propertyCalls', [1]);
    expect(result.counts.byMethod['PropertiesService.getUserProperties']).toBe(1);
    expect(result.counts.propertyCalls).toBe(2);
  });
});
