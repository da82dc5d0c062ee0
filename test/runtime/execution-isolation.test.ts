/**
 * Executions on pooled worker threads (dev/gas-runtime/bridge/worker-pool.ts) stay apart as in Apps
 * Script, where each execution starts from a fresh global scope (the "Execution" notes of
 * developers.google.com/apps-script/guides/v8-runtime): only what the services keep carries over.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'isolation');
const START = Date.UTC(2026, 0, 5, 9);

/** What traces() returns in an execution nothing came before. */
const CLEAN = {
  leftBehind: 'undefined',
  holder: 'undefined',
  arrayX: false,
  objectY: false,
  trim: 'a',
  getTime: 5,
  json: 1,
  evaluations: 1,
};

let runtime: GasRuntime;

async function open(): Promise<GasRuntime> {
  runtime = await createRuntime({ distDir: DIST, startTime: START, costModel: false });
  return runtime;
}

afterEach(async () => {
  await runtime.close();
});

async function traces(): Promise<Record<string, unknown>> {
  const result = await runtime.run('traces');
  expect(result.ok, result.error?.message).toBe(true);
  return result.value as Record<string, unknown>;
}

describe('nothing carries from one execution to the next', () => {
  it('execution 2 sees none of the globals, built-in prototypes and Date that execution 1 patched', async () => {
    await open();
    expect((await runtime.run('pollute')).value).toBe('polluted');
    const seen = await traces();
    expect(seen).toMatchObject(CLEAN);
    expect(seen.dateNow).toBeGreaterThanOrEqual(START);
  });

  it('an execution killed by the time limit is followed by one that works, from a fresh global scope', async () => {
    await open();
    const killed = await runtime.run('busyLoop', [], { timeLimitMs: 300 });
    expect(killed.timedOut).toBe(true);
    expect(await traces()).toMatchObject(CLEAN);
  });

  it('two executions running at once do not share globals', async () => {
    await open();
    const holding = runtime.run('holdGlobal', ['first']);
    await vi.waitFor(() => expect(runtime.properties.script.get('holding')).toBe('first'), { timeout: 30_000 });
    expect(await traces()).toMatchObject(CLEAN);
    runtime.properties.script.set('release', 'yes');
    expect((await holding).value).toBe('first');
  });
});

describe('worker threads are reused', () => {
  it('starts fewer worker threads than it runs executions, and a fresh one after a kill', async () => {
    await open();
    for (let i = 0; i < 10; i++) await traces();
    expect(runtime.workerThreadsStarted).toBeLessThan(10);
    const before = runtime.workerThreadsStarted;
    expect((await runtime.run('busyLoop', [], { timeLimitMs: 300 })).timedOut).toBe(true);
    await traces();
    // The killed execution's worker was ended: the next execution could not have had it.
    expect(runtime.workerThreadsStarted).toBeGreaterThan(before);
  });

  it('gives executions running at once their own worker threads', async () => {
    await open();
    const holding = runtime.run('holdGlobal', ['first']);
    await vi.waitFor(() => expect(runtime.properties.script.get('holding')).toBe('first'), { timeout: 30_000 });
    await traces();
    expect(runtime.workerThreadsStarted).toBe(2);
    runtime.properties.script.set('release', 'yes');
    await holding;
  });
});
