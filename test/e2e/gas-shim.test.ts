/**
 * The playground's google.script.run stand-in, in real Chromium, against Apps Script's documented
 * client semantics (developers.google.com/apps-script/guides/html/reference/run).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Playground } from '../../dev/playground/app';
import type { PlaygroundStack, RunResultLike } from '../../dev/playground/types';
import { type BrowserSession, hasChromium, openPlayground, SKIP_REASON } from './sidebar-session';

/** google.script.run as the page sees it (handlers chain; server functions return nothing). */
interface Runner {
  [name: string]: (...args: unknown[]) => Runner;
}
type ShimWindow = { google: { script: { run: Runner } } };

const calls: Array<{ name: string; args: unknown[]; authMode: string | undefined }> = [];

function result(partial: Partial<RunResultLike>): RunResultLike {
  return { ok: true, timedOut: false, logs: [], ...partial };
}

const stack: PlaygroundStack = {
  apiUrl: 'http://127.0.0.1:9',
  runtime: {
    async run(name, args = [], options) {
      calls.push({ name, args, authMode: options?.authMode });
      if (name === 'echo') return result({ value: { args } });
      if (name === 'boom') return result({ ok: false, error: { name: 'Error', message: 'Boom: the server refused' } });
      if (name === 'slow') return result({ ok: false, timedOut: true });
      return result({ ok: false, error: { name: 'ReferenceError', message: `Script function not found: ${name}` } });
    },
    async fireTrigger() {
      return result({});
    },
    triggers: [],
    exportJson: () => ({ sheets: {} }),
  },
  control: async () => null,
  advanceClocks: async () => undefined,
  close: async () => undefined,
};

describe.skipIf(!hasChromium)('google.script.run shim (Chromium)', () => {
  let dist: string;
  let session: BrowserSession;
  let playground: Playground;
  let page: Page;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'shim-dist-'));
    await writeFile(
      path.join(dist, 'Sidebar.html'),
      '<!DOCTYPE html><html><head><title>t</title></head><body></body></html>',
    );
    await writeFile(
      path.join(dist, 'Code.js'),
      'function echo() {}\nfunction boom() {}\nfunction slow() {}\nfunction helper_() {}\n',
    );
    // Playwright's default viewport: this page is the sidebar page alone.
    session = await openPlayground(stack, {
      distDir: dist,
      viewport: { width: 1280, height: 720 },
      open: 'playground/sidebar',
    });
    ({ playground, page } = session);
  });

  afterAll(async () => {
    await session?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it('exposes the server globals as methods, but not private ones ending in _', async () => {
    const names = await page.evaluate(() => {
      const run = (window as unknown as { google: { script: { run: Record<string, unknown> } } }).google.script.run;
      return ['echo', 'boom', 'slow', 'helper_'].map((n) => typeof run[n]);
    });
    expect(names).toEqual(['function', 'function', 'function', 'undefined']);
  });

  it('calls the success handler asynchronously with the value and the user object, in a FULL execution', async () => {
    const outcome = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let returnedFirst = false;
          const run = (window as unknown as ShimWindow).google.script.run;
          const value = run
            .withSuccessHandler((v: unknown, user: unknown) => resolve({ v, user, returnedFirst }))
            .withFailureHandler(() => resolve('failure'))
            .withUserObject({ row: 7 })
            .echo('a', 2, { nested: [true, null] });
          returnedFirst = value === undefined;
        }),
    );
    expect(outcome).toEqual({ v: { args: ['a', 2, { nested: [true, null] }] }, user: { row: 7 }, returnedFirst: true });
    expect(calls.at(-1)).toEqual({ name: 'echo', args: ['a', 2, { nested: [true, null] }], authMode: 'FULL' });
  });

  it('calls the failure handler with an Error carrying the server message, plus the user object', async () => {
    const outcome = await page.evaluate(
      () =>
        new Promise((resolve) => {
          (window as unknown as ShimWindow).google.script.run
            .withSuccessHandler(() => resolve('success'))
            .withUserObject('ctx')
            .withFailureHandler((e: Error, user: unknown) =>
              resolve({ isError: e instanceof Error, message: e.message, user }),
            )
            .boom();
        }),
    );
    expect(outcome).toEqual({ isError: true, message: 'Boom: the server refused', user: 'ctx' });
  });

  it('reports an execution ended by the time limit as Apps Script does', async () => {
    const message = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as unknown as ShimWindow).google.script.run
            .withFailureHandler((e: Error) => resolve(e.message))
            .slow(),
        ),
    );
    expect(message).toBe('Exceeded maximum execution time');
  });

  it('with* returns a new runner: google.script.run itself keeps no handlers', async () => {
    const outcome = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const run = (window as unknown as ShimWindow).google.script.run;
          const configured = run.withSuccessHandler(() => resolve('configured handler ran'));
          resolve(configured !== run && run.withSuccessHandler !== undefined ? 'separate' : 'same');
        }),
    );
    expect(outcome).toBe('separate');
  });

  it('refuses a Date argument before calling the server, through the failure handler', async () => {
    const before = calls.length;
    const message = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as unknown as ShimWindow).google.script.run
            .withFailureHandler((e: Error) => resolve(e.message))
            .echo({ when: new Date() }),
        ),
    );
    expect(message).toMatch(/illegal value/);
    expect(calls.length).toBe(before);
  });

  it('the run endpoint refuses a malformed request with a clear 400 and runs nothing', async () => {
    const before = calls.length;
    const response = await fetch(`${playground.url}playground/run`, {
      method: 'POST',
      body: '{"name": "x(); y", "args": []}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/server function name/);
    const notJson = await fetch(`${playground.url}playground/run`, { method: 'POST', body: 'not json' });
    expect(notJson.status).toBe(400);
    expect(calls.length).toBe(before);
  });
});

if (!hasChromium) describe('google.script.run shim (Chromium)', () => it.skip(SKIP_REASON, () => undefined));
