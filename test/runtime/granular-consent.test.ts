/**
 * Granular consent (developers.google.com/apps-script/concepts/scopes, "Handle granular OAuth
 * permissions"): a user who has not granted a manifest scope gets Google's refusal at the first call
 * that needs it; ScriptApp.getAuthorizationInfo(FULL, scopes) says REQUIRED with the URL to grant
 * them; ScriptApp.requireScopes ends the execution and shows the prompt; opening that URL grants them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

const USER = 'finance@example.com';
const EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';
const SCRIPT_APP = 'https://www.googleapis.com/auth/script.scriptapp';
const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';

let runtime: GasRuntime;
let server: http.Server;
let origin: string;
let served = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    served += 1;
    res.end('fine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  runtime = await basicRuntime({ urlFetchAllow: [`${origin}/`], costModel: false });
  await runtime.startCallbackServer();
});

afterAll(async () => {
  await runtime.close();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  runtime.consent.grant(USER);
  runtime.consent.grant('other@example.com');
});

describe('a scope the user has not granted', () => {
  it("refuses the call that needs it with Google's message, sending nothing; other users and other calls are unaffected", async () => {
    runtime.consent.withdraw(USER, EXTERNAL);
    const before = served;
    const refused = await runtime.run('fetchUrl', [`${origin}/ok`]);
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toBe(
      `You do not have permission to call UrlFetchApp.fetch. Required permissions: ${EXTERNAL}`,
    );
    expect(served).toBe(before);
    expect((await runtime.run('fetchUrl', [`${origin}/ok`], { user: 'other@example.com' })).ok).toBe(true);
    expect((await runtime.run('whoAmI')).value).toMatchObject({ active: USER });
    // A trigger keeps firing and fails at that call, as Google's do.
    runtime.consent.withdraw(USER, SCRIPT_APP);
    expect((await runtime.run('createHourlyTrigger', [1])).error?.message).toBe(
      `You do not have permission to call ScriptApp.newTrigger. Required permissions: ${SCRIPT_APP}`,
    );
  });

  it('getAuthorizationInfo says REQUIRED with a URL that grants what is missing; NOT_REQUIRED and no URL after', async () => {
    runtime.consent.withdraw(USER, EXTERNAL);
    const all = (await runtime.run('authorizationStatus')).value as {
      status: string;
      url: string;
      authorized: string[];
    };
    expect(all.status).toBe('REQUIRED');
    expect(all.authorized).toEqual([SCRIPT_APP, EMAIL]);
    // Asked about scopes the user granted, it is not required.
    expect((await runtime.run('authorizationStatus', [[EMAIL]])).value).toEqual({
      status: 'NOT_REQUIRED',
      url: null,
      authorized: [EMAIL],
    });
    const page = await fetch(all.url);
    expect(page.status).toBe(200);
    expect(runtime.consent.granted(USER)).toContain(EXTERNAL);
    expect((await runtime.run('authorizationStatus')).value).toMatchObject({ status: 'NOT_REQUIRED', url: null });
    expect((await runtime.run('fetchUrl', [`${origin}/ok`])).ok).toBe(true);
  });

  it('requireScopes ends the execution (no catch, no finally) and records the prompt; granted, it returns', async () => {
    runtime.consent.withdraw(USER, EXTERNAL);
    runtime.properties.script.deleteAll();
    const ended = await runtime.run('requireThenMark', [[EXTERNAL, EMAIL]]);
    expect(ended.ok).toBe(false);
    expect(ended.error?.message).toBe('Authorization is required to perform that action.');
    expect(runtime.properties.script.get('after-require')).toBeNull();
    expect(runtime.properties.script.get('finally')).toBeNull();
    expect(runtime.ui.authorizationPrompts.at(-1)).toMatchObject({ user: USER, scopes: [EXTERNAL] });
    runtime.consent.grant(USER);
    expect((await runtime.run('requireThenMark', [[EXTERNAL, EMAIL]])).value).toBe('done');
    expect(runtime.properties.script.get('after-require')).toBe('ran');
  });
});
