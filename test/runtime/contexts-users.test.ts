import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

/**
 * Contexts and users: the callback and a documentless trigger have no document; executions run
 * as a user, with that user's properties, cache, lock and triggers; a trigger runs as its creator.
 */
const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'contexts');
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

const DOCUMENTLESS = {
  active: null,
  activeSpreadsheet: null,
  activeSheet: null,
  documentProperties: null,
  documentLock: null,
  documentCache: null,
  userProperties: 'present',
  userLock: 'present',
  userCache: 'present',
  scriptProperties: 'present',
};

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await createRuntime({ distDir: DIST, user: { email: OWNER }, costModel: false });
});
afterAll(async () => {
  await runtime.close();
});

async function value<T>(
  name: string,
  args: unknown[] = [],
  options: Parameters<GasRuntime['run']>[2] = {},
): Promise<T> {
  const r = await runtime.run(name, args, options);
  if (!r.ok) throw new Error(`${name}: ${r.error?.message}`);
  return r.value as T;
}

describe('executions without a document', () => {
  it('a run has its document by default', async () => {
    const c = await value<Record<string, unknown>>('contexts');
    expect(c).toMatchObject({
      active: runtime.workbook.id,
      documentProperties: 'present',
      documentLock: 'present',
      documentCache: 'present',
      user: OWNER,
    });
  });

  it('run(…, { document: false }): getActive, document properties, lock and cache are null; user and script stores work', async () => {
    expect(await value('contexts', [], { document: false })).toEqual({ ...DOCUMENTLESS, user: OWNER });
  });

  it('the /usercallback execution has no document and runs as the user who made the state token', async () => {
    const url = await runtime.startCallbackServer();
    const token = await value<string>('makeCallbackToken', [], { user: EDITOR });
    const response = await fetch(`${url}?state=${encodeURIComponent(token)}&code=abc`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`${EDITOR} no-document`);
    expect(JSON.parse(runtime.properties.users[EDITOR]!.get('callback') ?? '{}')).toEqual({
      ...DOCUMENTLESS,
      user: EDITOR,
    });
    expect(runtime.properties.user.get('callback')).toBeNull();
  });

  it("openById opens the local workbook without a document; another id fails with Google's message", async () => {
    expect(await value('openAndRead', [runtime.workbook.id], { document: false })).toBe('Sheet1');
    const other = await runtime.run('openAndRead', ['1NotThisSpreadsheet'], { document: false });
    expect(other.error?.message).toBe(
      'Unexpected error while getting the method or property openById on object SpreadsheetApp.',
    );
  });

  it('getUi() throws without a document', async () => {
    const r = await runtime.run('uiWithoutDocument', [], { document: false });
    expect(r.error?.message).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
  });
});

describe('users', () => {
  it('user properties and the user cache are per user', async () => {
    await value('putUserValue', ['A'], { user: OWNER });
    await value('putUserValue', ['B'], { user: EDITOR });
    expect(await value('readUserValue', [], { user: OWNER })).toEqual({ property: 'A', cache: 'A' });
    expect(await value('readUserValue', [], { user: EDITOR })).toEqual({ property: 'B', cache: 'B' });
    expect(runtime.properties.user.get('mine')).toBe('A');
    expect(runtime.properties.users[EDITOR]!.get('mine')).toBe('B');
  });

  it("a custom function reads the owner's user properties, whoever recalculates", async () => {
    expect(await value('customFunctionUserStore', [], { authMode: 'CUSTOM_FUNCTION', user: EDITOR })).toBe('A');
  });

  it('user locks exclude the same user only', async () => {
    const holding = runtime.run('holdUserLockUntilReleased', [], { user: OWNER });
    await vi.waitFor(() => expect(runtime.properties.script.get('holding')).toBe('yes'), { timeout: 30_000 });
    expect(await value('tryUserLock', [], { user: OWNER })).toBe(false);
    expect(await value('tryUserLock', [], { user: EDITOR })).toBe(true);
    runtime.properties.script.set('release', 'yes');
    expect((await holding).value).toBe('held');
  });
});

describe('triggers belong to their creator', () => {
  let ownerTrigger: string;
  let editorTrigger: string;

  it('each user sees only their own triggers (getProjectTriggers, getUserTriggers)', async () => {
    ownerTrigger = await value<string>('createSchedule', [], { user: OWNER });
    editorTrigger = await value<string>('createSchedule', [], { user: EDITOR });
    expect(await value('visibleTriggers', [], { user: OWNER })).toEqual({
      project: [ownerTrigger],
      user: [ownerTrigger],
    });
    expect(await value('visibleTriggers', [], { user: EDITOR })).toEqual({
      project: [editorTrigger],
      user: [editorTrigger],
    });
  });

  it("a user cannot delete another user's trigger", async () => {
    expect(await value('deleteTriggerById', [ownerTrigger], { user: EDITOR })).toBe(false);
    expect(runtime.triggers.map((t) => t.uid)).toContain(ownerTrigger);
  });

  it('a fired trigger runs as its creator, with its document by default', async () => {
    const fired = await runtime.fireTrigger(editorTrigger);
    expect(fired.value).toMatchObject({ user: EDITOR, active: runtime.workbook.id, documentProperties: 'present' });
    expect(runtime.properties.users[EDITOR]!.get('lastRun')).toContain(editorTrigger);
  });

  it('fireTrigger(uid, { document: false }) runs it without its document', async () => {
    const fired = await runtime.fireTrigger(ownerTrigger, { document: false });
    expect(fired.value).toEqual({ ...DOCUMENTLESS, user: OWNER });
  });

  it('a documentless execution cannot create an add-on trigger (it has no document to tie it to)', async () => {
    const r = await runtime.run('createSchedule', [], { user: 'third@example.com', document: false });
    expect(r.error?.message).toBe('Add-ons can only create triggers for the current document.');
  });

  it('trigger runtime is counted against the creator', async () => {
    const before = runtime.quotas.use(EDITOR).triggerMsLast24h;
    runtime.clock.advance(1);
    const fired = await runtime.fireTrigger(editorTrigger);
    expect(fired.counts.quota?.user).toBe(EDITOR);
    expect(runtime.quotas.use(EDITOR).triggerMsLast24h).toBeGreaterThanOrEqual(before);
  });
});

describe("saved state keeps every user's stores", () => {
  it('saveState/loadState round-trips per-user properties and caches', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gas-users-'));
    try {
      await runtime.saveState(dir);
      const again = await createRuntime({ distDir: DIST, user: { email: OWNER }, costModel: false, stateDir: dir });
      try {
        expect(again.properties.user.get('mine')).toBe('A');
        expect(again.properties.users[EDITOR]!.get('mine')).toBe('B');
        const r = await again.run('readUserValue', [], { user: EDITOR });
        expect(r.value).toEqual({ property: 'B', cache: 'B' });
        expect(again.triggers.map((t) => t.userEmail).sort()).toEqual([EDITOR, OWNER]);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
