/**
 * The built bundle as Apps Script will load it: dist/Code.js in a bare V8 context that has none of
 * the globals Apps Script lacks, with every Apps Script service booby-trapped so that loading the
 * file must not touch any of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { readGlobals, readGlobalsOf } from '../../build/globals';
import { forbiddenGlobalsUsed } from './forbidden-globals';

const root = path.resolve(__dirname, '../..');
const code = readFileSync(path.join(root, 'dist/Code.js'), 'utf8');
const { globals } = readGlobalsOf(root, 'src/server/main.ts');

const APPS_SCRIPT_SERVICES = [
  'SpreadsheetApp',
  'Sheets',
  'PropertiesService',
  'CacheService',
  'LockService',
  'UrlFetchApp',
  'ScriptApp',
  'HtmlService',
  'Session',
  'Utilities',
  'Logger',
  'OAuth2',
  'DriveApp',
  'MailApp',
  'ContentService',
];

function loadBare(): { context: vm.Context; touched: string[] } {
  const touched: string[] = [];
  const sandbox: Record<string, unknown> = {};
  for (const service of APPS_SCRIPT_SERVICES) {
    sandbox[service] = new Proxy(
      {},
      {
        get(_target, property) {
          touched.push(`${service}.${String(property)}`);
          throw new Error(`loading Code.js touched ${service}.${String(property)}`);
        },
      },
    );
  }
  const context = vm.createContext(sandbox);
  // A fresh context still carries some Node-era intrinsics; Apps Script has none of these.
  vm.runInContext(
    [
      'URL',
      'URLSearchParams',
      'TextEncoder',
      'TextDecoder',
      'setTimeout',
      'setInterval',
      'fetch',
      'atob',
      'btoa',
      'crypto',
      'process',
      'Buffer',
      'require',
      'structuredClone',
      'queueMicrotask',
    ]
      .map((name) => `delete globalThis.${name};`)
      .join('\n'),
    context,
  );
  vm.runInContext(code, context, { filename: 'Code.js' });
  return { context, touched };
}

describe('dist/Code.js loads in a bare Apps Script V8 context', () => {
  it('has none of the globals Apps Script lacks', () => {
    const { context } = loadBare();
    const present = vm.runInContext(
      `['URL','URLSearchParams','TextEncoder','setTimeout','fetch','atob','btoa','crypto','process','Buffer','require']
        .filter(function (n) { return typeof globalThis[n] !== 'undefined'; })`,
      context,
    ) as string[];
    expect(Array.from(present)).toEqual([]);
  });

  it('calls no Apps Script service while loading', () => {
    expect(loadBare().touched).toEqual([]);
  });

  it('exports at least the globals the add-on is built around', () => {
    const names = globals.map((g) => g.name);
    for (const required of ['onOpen', 'onInstall', 'authCallback', 'PROFIT_SUMMARY', 'PROFIT_DAILY']) {
      expect(names, `main.ts must export ${required}`).toContain(required);
    }
  });

  it.each(globals.map((g) => [g.name]))('global %s is a callable top-level function declaration', (name) => {
    const { context } = loadBare();
    expect(vm.runInContext(`typeof ${name}`, context)).toBe('function');
    const program = parse(code, { ecmaVersion: 2020, sourceType: 'script' });
    const declared = program.body.some((node) => node.type === 'FunctionDeclaration' && node.id?.name === name);
    expect(declared, `${name} must be a top-level "function ${name}()" declaration`).toBe(true);
  });

  it('keeps @customfunction on the top-level declaration of every custom function', () => {
    const custom = globals.filter((g) => g.isCustomFunction);
    expect(custom.length).toBeGreaterThan(0);
    for (const fn of custom) {
      const declaration = new RegExp(
        `/\\*\\*(?:(?!\\*/)[\\s\\S])*@customfunction(?:(?!\\*/)[\\s\\S])*\\*/\\s*function ${fn.name}\\(`,
      );
      expect(code, `${fn.name} must carry its JSDoc with @customfunction`).toMatch(declaration);
    }
  });

  it('does not refer to any global Apps Script lacks, even on paths loading does not run', () => {
    expect(forbiddenGlobalsUsed(code)).toEqual([]);
  });
});

describe('the bundle test itself', () => {
  it('rejects server code that uses URLSearchParams inside a function', () => {
    const bad = 'function build(q) { return new URLSearchParams(q).toString(); }';
    expect(forbiddenGlobalsUsed(bad)).toEqual(['URLSearchParams']);
  });

  it('rejects a global exported from main.ts without a top-level declaration', () => {
    const { problems } = readGlobals('export const PROFIT_X = () => 1;\nexport { a as b } from "./a";');
    expect(problems.length).toBe(2);
  });

  it('accepts a local variable that merely shares a forbidden name', () => {
    expect(forbiddenGlobalsUsed('function f() { var fetch = 1; return fetch + 1; }')).toEqual([]);
  });
});
