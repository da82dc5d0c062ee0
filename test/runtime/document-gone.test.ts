import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

/**
 * A spreadsheet deleted, or no longer shared with a user (the runtime's document access).
 * Google keeps its triggers; they fire without the document, and openById throws "Document <id> is
 * missing (perhaps it was deleted, or you don't have read access?)".
 */
const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'contexts');
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const missing = (id: string) => `Document ${id} is missing (perhaps it was deleted, or you don't have read access?)`;

let runtime: GasRuntime;

beforeEach(async () => {
  runtime = await createRuntime({ distDir: DIST, user: { email: OWNER }, costModel: false });
});
afterEach(async () => {
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

describe('a deleted spreadsheet', () => {
  it('its clock trigger stays, fires without its document, and openById throws Google\'s "is missing"', async () => {
    const uid = await value<string>('createSchedule');
    const id = runtime.workbook.id;
    runtime.deleteDocument(id);
    expect(runtime.triggers.map((t) => t.uid)).toEqual([uid]);
    const fired = await runtime.fireTrigger(uid);
    expect(fired.ok, fired.error?.message).toBe(true);
    expect(fired.value).toMatchObject({ active: null, documentProperties: null, user: OWNER });
    const opened = await runtime.run('openAndRead', [id], { document: false });
    expect(opened.error?.message).toBe(missing(id));
    await expect(runtime.run('contexts')).rejects.toThrow(missing(id));
  });

  it('a copy deleted: its own trigger fires without it and openById of the copy fails; the original opens', async () => {
    const copyId = runtime.makeCopy(EDITOR);
    const uid = await value<string>('createSchedule', [], { user: EDITOR, spreadsheetId: copyId });
    runtime.deleteDocument(copyId);
    const fired = await runtime.fireTrigger(uid);
    expect(fired.value).toMatchObject({ active: null, user: EDITOR });
    expect(
      (await runtime.run('openAndRead', [copyId], { user: EDITOR, document: false, spreadsheetId: copyId })).error
        ?.message,
    ).toBe(missing(copyId));
    expect(await value('openAndRead', [runtime.workbook.id])).toBe('Sheet1');
  });
});

describe('a spreadsheet no longer shared with a user', () => {
  it("is missing for that user only; their trigger fires without it, the owner's with it", async () => {
    const id = runtime.workbook.id;
    const mine = await value<string>('createSchedule');
    const theirs = await value<string>('createSchedule', [], { user: EDITOR });
    runtime.revokeAccess(id, EDITOR);
    expect((await runtime.fireTrigger(theirs)).value).toMatchObject({ active: null, user: EDITOR });
    expect((await runtime.fireTrigger(mine)).value).toMatchObject({ active: id, user: OWNER });
    expect((await runtime.run('openAndRead', [id], { user: EDITOR, document: false })).error?.message).toBe(
      missing(id),
    );
    expect(await value('openAndRead', [id], { document: false })).toBe('Sheet1');
  });

  it('openById opens another spreadsheet the user owns, by id; one they do not own is missing for them', async () => {
    const copyId = runtime.makeCopy(OWNER);
    runtime.copyOf(copyId).workbook.sheets[0]!.name = 'In the copy';
    expect(await value('openAndRead', [copyId])).toBe('In the copy');
    expect((await runtime.run('openAndRead', [copyId], { user: EDITOR })).error?.message).toBe(missing(copyId));
  });
});
