/**
 * TypeScript library stand-ins: Apps Script library files are scripts, so a .ts stand-in's
 * namespace is its top-level declarations, whatever its comments and strings say. Only a file
 * with real ES import/export statements is treated as a module (its exports are the namespace).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type GasRuntime } from '../../dev/gas-runtime/index.js';
import { hasModuleSyntax, loadLibrary } from '../../dev/gas-runtime/libraries.js';
import { LIBRARY_DIST } from './fixture-runtime.js';

/** The Greeter fixture library (fixtures/library/Greeter.gs) as a TS script whose comments say "export". */
const SCRIPT_WITH_EXPORT_IN_COMMENTS = `/*
 * Greeter stand-in. We export nothing: every top-level declaration is the namespace.
 */
// export function notAnExport() {}
var VERSION: string = '3';
const PREFIX = 'Hello, ';
const NOTE = 'export default greet; import x from "y"';
function greet(name: string): string { return PREFIX + name + ' (' + Utilities.formatDate(new Date(0), 'UTC', 'yyyy') + ')'; }
class Counter { n = 0; next(): number { return ++this.n; } }
function storeGreeting(name: string): void { PropertiesService.getScriptProperties().setProperty('greeting', greet(name)); }
`;

/** The same library written as an ES module: its exports (not its private helpers) are the namespace. */
const MODULE_WITH_EXPORTS = `const PREFIX = 'Hello, ';
function stamp(): string { return Utilities.formatDate(new Date(0), 'UTC', 'yyyy'); }
export const VERSION = '3';
export function greet(name: string): string { return PREFIX + name + ' (' + stamp() + ')'; }
export class Counter { n = 0; next(): number { return ++this.n; } }
export function storeGreeting(name: string): void { PropertiesService.getScriptProperties().setProperty('greeting', greet(name)); }
`;

let dir: string;
let scriptFile: string;
let moduleFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'gas-library-'));
  scriptFile = path.join(dir, 'Greeter.standin.ts');
  moduleFile = path.join(dir, 'Greeter.module.ts');
  await writeFile(scriptFile, SCRIPT_WITH_EXPORT_IN_COMMENTS);
  await writeFile(moduleFile, MODULE_WITH_EXPORTS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a .ts stand-in that mentions "export" only in comments and strings is a script', () => {
  let runtime: GasRuntime | null = null;
  afterEach(async () => {
    await runtime?.close();
    runtime = null;
  });

  it('its namespace is every top-level declaration', async () => {
    const library = await loadLibrary('Greeter', { Greeter: scriptFile });
    expect([...library.exportNames].sort()).toEqual(['Counter', 'NOTE', 'PREFIX', 'VERSION', 'greet', 'storeGreeting']);
  });

  it('runs in the runtime like the .gs library', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: scriptFile } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      greeting: 'Hello, Ada (1970)',
      version: '3',
      count: 2,
      keys: ['Counter', 'NOTE', 'PREFIX', 'VERSION', 'greet', 'storeGreeting'],
    });
    expect(runtime.properties.script.get('greeting')).toBe('Hello, Ada (1970)');
  });
});

describe('a .ts stand-in with real export statements is a module', () => {
  let runtime: GasRuntime | null = null;
  afterEach(async () => {
    await runtime?.close();
    runtime = null;
  });

  it('its namespace is its exports, not its private helpers', async () => {
    runtime = await createRuntime({ distDir: LIBRARY_DIST, libraries: { Greeter: moduleFile } });
    const result = await runtime.run('useLibrary', ['Ada']);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      greeting: 'Hello, Ada (1970)',
      version: '3',
      count: 2,
      keys: ['Counter', 'VERSION', 'greet', 'storeGreeting'],
    });
  });
});

describe('module detection reads statements, not words', () => {
  it.each([
    ['export const a = 1;', true],
    ['import x from "y"; x();', true],
    ['export { a }; var a = 1;', true],
    ['// export const a = 1;\nvar a = 1;', false],
    ['var s = "export default 1; import x from \'y\'";', false],
    ['/* export */ function f() { return { export: 1, import: 2 }; }', false],
    // Valid only as a script (with): never a module.
    ['with (Math) { var r = max(1, 2); }', false],
  ])('%s → module: %s', (code, expected) => {
    expect(hasModuleSyntax(code)).toBe(expected);
  });
});
