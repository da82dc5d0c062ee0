import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime, LIBRARY_DIST } from './fixture-runtime.js';

const GREETER = path.join(LIBRARY_DIST, 'Greeter.gs');

describe('libraries load in their own context; the namespace is what they declare at top level', () => {
  let runtime: GasRuntime;
  afterEach(async () => {
    await runtime.close();
    delete process.env.GAS_LIBRARY_Greeter;
  });

  it('exposes functions, var, const and class declarations, with the same services', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: GREETER } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      greeting: 'Hello, Ada (1970)',
      version: '3',
      count: 2,
      keys: ['Counter', 'PREFIX', 'VERSION', 'greet', 'storeGreeting'],
    });
    expect(runtime.properties.script.get('greeting')).toBe('Hello, Ada (1970)');
  });

  it('takes the library file from GAS_LIBRARY_<userSymbol>', async () => {
    process.env.GAS_LIBRARY_Greeter = GREETER;
    runtime = await createRuntime({ distDir: LIBRARY_DIST });
    expect((await runtime.run('useLibrary', ['Env'])).ok).toBe(true);
  });

  it('fails clearly when a manifest library has no source', async () => {
    await expect(createRuntime({ distDir: LIBRARY_DIST })).rejects.toThrow(
      /Library Greeter has no source: set GAS_LIBRARY_Greeter/,
    );
    runtime = await basicRuntime();
  });
});

describe('HtmlService, Session', () => {
  let runtime: GasRuntime;
  beforeAll(async () => {
    runtime = await basicRuntime({ costModel: false });
  });
  afterAll(async () => {
    await runtime.close();
  });

  it('reads html files of the bundle and evaluates printing scriptlets', async () => {
    const page = await runtime.run('htmlPage');
    expect(page.value).toEqual({
      content: '<!doctype html><html><body><h1>Fixture page</h1></body></html>\n',
      title: 'Fixture',
    });
    const template = await runtime.run('htmlTemplate');
    expect(template.value).toBe('<p>Hello &lt;Ann &amp; Bob&gt;, raw: <b>VIP</b></p>\n');
  });

  it('knows the user in FULL mode and not in a custom function', async () => {
    const full = (await runtime.run('whoAmI')).value as { active: string; zone: string; key: string };
    expect(full.active).toBe('finance@example.com');
    expect(full.zone).toBe('America/New_York');
    expect(full.key).not.toContain('finance');
    expect(
      ((await runtime.run('whoAmI', [], { authMode: 'CUSTOM_FUNCTION' })).value as { active: string }).active,
    ).toBe('');
  });
});

describe('SpreadsheetApp and the Advanced Sheets service through the bridge', () => {
  let runtime: GasRuntime;
  beforeAll(async () => {
    runtime = await basicRuntime();
  });
  afterAll(async () => {
    await runtime.close();
  });

  it('counts sheets calls and the cells read and written', async () => {
    const result = await runtime.run('writeGrid', [3, 4]);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(result.counts.cellsWritten).toBe(12);
    expect(result.counts.cellsRead).toBe(12);
    expect(result.counts.byMethod['Range.setValues']).toBe(1);
    expect(result.counts.sheetsCalls).toBe(result.counts.serviceCalls);
  });

  it('counts the cells of a Values.batchUpdate by its ranges', async () => {
    const result = await runtime.run('batchWrite');
    expect(result.error).toBeUndefined();
    expect(result.value).toBe('=x'); // RAW keeps formula-looking text as text
    expect(result.counts.byMethod['Sheets.Spreadsheets.Values.batchUpdate']).toBe(1);
    expect(result.counts.cellsWritten).toBe(5);
  });

  it('refuses spreadsheet writes in a custom function', async () => {
    const result = await runtime.run('writeCell', ['x'], { authMode: 'CUSTOM_FUNCTION' });
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/^You do not have permission to call/);
  });
});

describe('saveState and stateDir carry the stores to the next invocation', () => {
  let dir: string;
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('restores properties, cache, triggers, the clock and the workbook', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gas-state-'));
    const first = await basicRuntime({ startTime: Date.UTC(2024, 1, 1) });
    await first.run('setProperty', ['document', 'checkpoint', '2024-01-31T23:59:00Z']);
    await first.run('cachePut', ['warm', 'yes', 7200]);
    await first.run('createHourlyTrigger', [1]);
    await first.run('writeGrid', [2, 2]);
    first.clock.advance(3_600_000);
    const savedAt = first.clock.now();
    await first.saveState(dir);
    await first.close();
    expect(JSON.parse(await readFile(path.join(dir, 'properties.json'), 'utf8')).document).toEqual({
      checkpoint: '2024-01-31T23:59:00Z',
    });

    const next = await basicRuntime({ stateDir: dir });
    try {
      expect(next.properties.document.get('checkpoint')).toBe('2024-01-31T23:59:00Z');
      expect(next.triggers).toHaveLength(1);
      expect(next.clock.now() - savedAt).toBeGreaterThanOrEqual(0);
      expect(next.clock.now() - savedAt).toBeLessThan(60_000);
      expect((await next.run('cacheGet', ['warm'])).value).toBe('yes');
      expect((await next.run('writeGrid', [2, 2])).value).toEqual([
        [0, 1],
        [2, 3],
      ]);
      expect(next.exportJson().sheets.Data.slice(0, 2)).toEqual([
        [0, 1],
        [2, 3],
      ]);
    } finally {
      await next.close();
    }
  });
});
