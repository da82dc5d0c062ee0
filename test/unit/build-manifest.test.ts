import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildManifest, normaliseBaseUrl, whitelistFor, type Manifest } from '../../build/manifest';
import { readGlobals, renderGlobalDeclarations, type EntryResolver } from '../../build/globals';

const root = path.resolve(__dirname, '../..');

describe('manifest: urlFetchWhitelist is derived from the configured API base URL', () => {
  it('is the base URL with a path, as Apps Script requires of whitelist prefixes', () => {
    expect(whitelistFor('https://api.example.com')).toEqual(['https://api.example.com/']);
    expect(whitelistFor('https://api.example.com/')).toEqual(['https://api.example.com/']);
  });

  it('an API base URL given with /api/v1 still allows the token endpoint and discovery (spec 5.2)', () => {
    const whitelist = whitelistFor('https://api.merchant-analytics.com/api/v1');
    // The spec's endpoints, matched as Apps Script matches urlFetchWhitelist entries: by prefix.
    const allowed = (url: string) => whitelist.some((prefix) => url.startsWith(prefix));
    for (const url of [
      'https://api.merchant-analytics.com/api/v1/orders',
      'https://api.merchant-analytics.com/api/auth/oauth2/token',
      'https://api.merchant-analytics.com/.well-known/oauth-authorization-server',
    ]) {
      expect(allowed(url), url).toBe(true);
    }
    expect(allowed('https://api.merchant-analytics.com.evil.example/api/v1/orders')).toBe(false);
  });

  it('refuses a base URL that is not https or carries a query', () => {
    expect(() => normaliseBaseUrl('http://api.example.com')).toThrow(/https/);
    expect(() => normaliseBaseUrl('https://api.example.com/?token=x')).toThrow(/query/);
  });

  it('dist/appsscript.json is the source manifest with the derived whitelist, V8 and explicit scopes', () => {
    const source = JSON.parse(readFileSync(path.join(root, 'appsscript.json'), 'utf8')) as Manifest;
    const built = JSON.parse(readFileSync(path.join(root, 'dist/appsscript.json'), 'utf8')) as Manifest;
    const config = JSON.parse(readFileSync(path.join(root, 'deploy.config.json'), 'utf8')) as { apiBaseUrl: string };
    expect(built).toEqual(buildManifest(source, process.env.MA_API_BASE_URL ?? config.apiBaseUrl));
    expect(built.runtimeVersion).toBe('V8');
    expect(Intl.supportedValuesOf('timeZone')).toContain(built.timeZone);
    expect(built.oauthScopes.length).toBeGreaterThan(0);
    const oauth2 = (built.dependencies as { libraries: Array<{ userSymbol: string; version: string }> }).libraries.find(
      (l) => l.userSymbol === 'OAuth2',
    );
    expect(oauth2?.version).toMatch(/^\d+$/);
  });
});

describe('globals: every export of main.ts becomes a documented top-level declaration', () => {
  const source = [
    '/** Sums.\n * @customfunction\n */',
    'export function SUM2(a: number, b: number): number { return a + b; }',
    '/** Opens. */',
    'export function onOpen(e?: unknown): void { void e; }',
  ].join('\n');

  it('reads names, parameters, JSDoc and @customfunction', () => {
    const { globals, problems } = readGlobals(source);
    expect(problems).toEqual([]);
    expect(globals.map((g) => [g.name, g.params, g.isCustomFunction])).toEqual([
      ['SUM2', ['a', 'b'], true],
      ['onOpen', ['e'], false],
    ]);
  });

  it('renders declarations that forward to the bundle namespace with the JSDoc kept', () => {
    const rendered = renderGlobalDeclarations(readGlobals(source).globals, 'NS');
    const fn = new Function('NS', `${rendered}; return SUM2(2, 3);`);
    expect(fn({ SUM2: (a: number, b: number) => a + b })).toBe(5);
    expect(rendered).toContain('@customfunction\n */\nfunction SUM2(a, b)');
  });

  it('refuses an undocumented export and a name Apps Script would treat as private', () => {
    const { problems } = readGlobals('export function run_() {}\n');
    expect(problems.join('\n')).toMatch(/no JSDoc/);
    expect(problems.join('\n')).toMatch(/private/);
  });
});

describe('globals: main.ts lists globals that entry files declare, each keeping its JSDoc', () => {
  const entries: Record<string, string> = {
    'src/entries/functions.ts': [
      "import { sum } from '../maths';",
      '/**\n * Sums.\n * @param {number} a first\n * @customfunction\n */',
      'export function SUM2(a: number, b: number): number { return sum(a, b); }',
      '/** Doubles.\n * @customfunction\n */',
      'export function DOUBLE(x: number): number { return 2 * x; }',
    ].join('\n'),
    'src/entries/menu.ts': '/** Opens. */\nexport function onOpen(e?: unknown): void { void e; }',
  };
  const resolve: EntryResolver = (specifier, from) => {
    const fileName = `${from.slice(0, from.lastIndexOf('/'))}/${specifier.replace(/^\.\//, '')}.ts`;
    return entries[fileName] === undefined ? null : { source: entries[fileName], fileName };
  };

  it("follows `export { ... } from` to the entry file, in main.ts's order, with the entry file's JSDoc", () => {
    const main = [
      "export { DOUBLE } from './entries/functions';",
      "export { onOpen } from './entries/menu';",
      "export { SUM2 } from './entries/functions';",
    ].join('\n');
    const { globals, problems } = readGlobals(main, 'src/main.ts', resolve);
    expect(problems).toEqual([]);
    expect(globals.map((g) => [g.name, g.params, g.isCustomFunction])).toEqual([
      ['DOUBLE', ['x'], true],
      ['onOpen', ['e'], false],
      ['SUM2', ['a', 'b'], true],
    ]);
    const rendered = renderGlobalDeclarations(globals, 'NS');
    expect(rendered).toContain('@param {number} a first\n * @customfunction\n */\nfunction SUM2(a, b)');
  });

  it('refuses an entry export main.ts does not list, a renamed global, `export *` and an unreadable entry', () => {
    const main = [
      "export { SUM2, DOUBLE as TWICE } from './entries/functions';",
      "export * from './entries/menu';",
      "export { gone } from './entries/nowhere';",
    ].join('\n');
    const { globals, problems } = readGlobals(main, 'src/main.ts', resolve);
    expect(globals.map((g) => g.name)).toEqual(['SUM2']);
    expect(problems.join('\n')).toMatch(/DOUBLE as TWICE.*own name/);
    expect(problems.join('\n')).toMatch(/DOUBLE is exported but src\/main\.ts does not list it/);
    expect(problems.join('\n')).toMatch(/export \* from/);
    expect(problems.join('\n')).toMatch(/nowhere cannot be read/);
    expect(problems.length).toBe(4);
  });
});
