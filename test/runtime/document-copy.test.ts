import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';

/**
 * File → Make a copy, the stricter reading (dev/gas-runtime/document-copies.ts): the copy has a new
 * id and carries the sheets and the document properties; triggers stay with the original; the
 * copier owns the copy; the two spreadsheets' properties are separate from then on.
 */
const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'contexts');
const OWNER = 'owner@example.com';
const COPIER = 'copier@example.com';

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

describe('a copy made with File → Make a copy', () => {
  it('has a new id, the same sheets and document properties, no trigger; its properties are its own from then on', async () => {
    expect(await value('setDocumentValue', ['carried', 'yes'])).toBe(true);
    await value('createSchedule');
    const copyId = runtime.makeCopy(COPIER);
    expect(copyId).not.toBe(runtime.workbook.id);
    expect(await value('spreadsheetId', [], { user: COPIER, spreadsheetId: copyId })).toBe(copyId);
    expect(await value('openAndRead', [copyId], { user: COPIER, spreadsheetId: copyId })).toBe(
      runtime.workbook.sheets[0]!.name,
    );
    expect(await value('documentValue', ['carried'], { user: COPIER, spreadsheetId: copyId })).toBe('yes');
    expect(
      await value('setDocumentValue', ['carried', 'changed in the copy'], { user: COPIER, spreadsheetId: copyId }),
    ).toBe(true);
    expect(await value('documentValue', ['carried'])).toBe('yes');
    expect(runtime.copyOf(copyId).properties.get('carried')).toBe('changed in the copy');
    expect(runtime.triggers.filter((t) => t.documentId === copyId)).toEqual([]);
    const other = await runtime.run('openAndRead', [runtime.workbook.id], { user: COPIER, spreadsheetId: copyId });
    expect(other.ok).toBe(false);
  });

  it("the copier owns it: a custom function there reads the copier's user properties", async () => {
    const copyId = runtime.makeCopy(COPIER);
    // The copier uses the add-on in the copy (a FULL execution there): only then do its formulas run (addon-enabled.test.ts).
    await value('spreadsheetId', [], { user: COPIER, spreadsheetId: copyId });
    await value('putUserValue', ["the copier's"], { user: COPIER });
    await value('putUserValue', ["the owner's"], { user: OWNER });
    expect(
      await value('customFunctionUserStore', [], { authMode: 'CUSTOM_FUNCTION', user: OWNER, spreadsheetId: copyId }),
    ).toBe("the copier's");
    expect(await value('customFunctionUserStore', [], { authMode: 'CUSTOM_FUNCTION', user: COPIER })).toBe(
      "the owner's",
    );
  });
});
