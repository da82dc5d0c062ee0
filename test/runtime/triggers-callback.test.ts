import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await basicRuntime({ costModel: false });
});
afterAll(async () => {
  await runtime.close();
});

describe('time-driven triggers under the Editor add-on rules', () => {
  it('refuses triggers more frequent than once an hour', async () => {
    const minutes = await runtime.run('createMinuteTrigger');
    expect(minutes.ok).toBe(false);
    expect(minutes.error?.message).toMatch(/at most once per hour/);
    const zeroHours = await runtime.run('createHourlyTrigger', [0]);
    expect(zeroHours.error?.message).toMatch(/at most once per hour/);
    expect(runtime.triggers).toHaveLength(0);
  });

  it('allows one time-driven trigger per user per document', async () => {
    const first = await runtime.run('createHourlyTrigger', [1]);
    expect(first.ok).toBe(true);
    const second = await runtime.run('createDailyTrigger');
    expect(second.ok).toBe(false);
    expect(second.error?.message).toBe(
      'This add-on has created too many time-based triggers in this document for this Google user account.',
    );
    expect(runtime.triggers).toHaveLength(1);
    expect(runtime.triggers[0]).toMatchObject({
      uid: first.value,
      handlerFunction: 'onSchedule',
      type: 'CLOCK',
      everyHours: 1,
    });
    const listed = await runtime.run('listTriggers');
    expect(listed.value).toEqual([{ handler: 'onSchedule', id: first.value, type: 'CLOCK', source: 'CLOCK' }]);
  });

  it('fires a trigger with a time-driven event object', async () => {
    const uid = runtime.triggers[0].uid;
    const fired = await runtime.run('onSchedule', [], { event: { triggerUid: 'manual' } });
    expect(fired.value).toBe('manual');
    const result = await runtime.fireTrigger(uid);
    expect(result.ok).toBe(true);
    expect(result.value).toBe(uid);
    const event = JSON.parse(runtime.properties.script.get('scheduled') ?? '{}') as Record<string, unknown>;
    expect(event).toMatchObject({ authMode: 'FULL', triggerUid: uid, timezone: 'UTC' });
    expect(event.hour).toBe(new Date(runtime.clock.now()).getUTCHours());
  });

  it('deleteTrigger frees the slot for a new schedule', async () => {
    expect((await runtime.run('deleteAllTriggers')).value).toBe(0);
    expect(runtime.triggers).toHaveLength(0);
    expect((await runtime.run('createDailyTrigger')).ok).toBe(true);
    expect(runtime.triggers[0]).toMatchObject({ atHour: 5, everyDays: 1 });
  });

  it('custom functions cannot create triggers', async () => {
    const result = await runtime.run('createHourlyTrigger', [1], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.error?.message).toBe('You do not have permission to call ScriptApp.newTrigger');
  });
});

describe('state tokens and the /usercallback endpoint', () => {
  let callbackUrl: string;

  beforeAll(async () => {
    callbackUrl = await runtime.startCallbackServer();
  });

  async function token(timeoutSeconds: number): Promise<string> {
    const result = await runtime.run('makeStateToken', [timeoutSeconds]);
    expect(result.ok).toBe(true);
    return result.value as string;
  }

  it('listens on loopback and is the service URL', async () => {
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/usercallback$/);
    const info = (await runtime.run('scriptInfo')).value as { id: string; full: string; url: string };
    expect(info.full).toBe('FULL');
    expect(info.url).toBe(callbackUrl.replace('/usercallback', '/exec'));
    expect(info.id).toMatch(/^1[\w-]{43}$/);
  });

  it('runs the named callback with the state arguments and the query parameters', async () => {
    const state = await token(3600);
    expect(state).not.toContain('merchant'); // the arguments are sealed, not readable in the URL
    const response = await fetch(`${callbackUrl}?state=${encodeURIComponent(state)}&code=abc123&scope=read`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe('<p>Connected with code abc123</p>');
    const request = JSON.parse(runtime.properties.script.get('callback') ?? '{}') as {
      parameter: Record<string, string>;
      parameters: Record<string, string[]>;
    };
    expect(request.parameter).toEqual({ state, code: 'abc123', scope: 'read', serviceName: 'merchant' });
    expect(request.parameters).toEqual({
      state: [state],
      code: ['abc123'],
      scope: ['read'],
      serviceName: ['merchant'],
    });
  });

  it('refuses a forged token and runs nothing', async () => {
    runtime.properties.script.delete('callback');
    const state = await token(3600);
    const forged = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    const response = await fetch(`${callbackUrl}?state=${encodeURIComponent(forged)}&code=x`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/couldn't verify.*invalid/);
    const missing = await fetch(`${callbackUrl}?code=x`);
    expect(missing.status).toBe(400);
    expect(runtime.properties.script.get('callback')).toBeNull();
  });

  it('refuses a token past its timeout on the runtime clock', async () => {
    runtime.properties.script.delete('callback');
    const state = await token(60);
    runtime.clock.advance(61_000);
    const response = await fetch(`${callbackUrl}?state=${encodeURIComponent(state)}&code=x`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/expired/);
    expect(runtime.properties.script.get('callback')).toBeNull();
  });
});
