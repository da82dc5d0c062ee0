/**
 * Every Apps Script method the built bundle calls exists in the local runtime: a method
 * the runtime lacks (Sheet.deleteRows was one) is code no test has ever run. Static: dist/Code.js is
 * parsed with acorn, and every `x.name(…)` call whose name is a method of an Apps Script class the
 * add-on's services have (from @types/google-apps-script) must be a method of the runtime's class of
 * that name (`Sheet.deleteRows` on the runtime's `Sheet`) — or be on the short list below, with why.
 *
 * What a static check cannot tell is which object a call is made on, so a name passes when ANY
 * Apps Script class declaring it has it in the runtime. Left out: names that are also methods of
 * JavaScript's own objects (Array, String, Map, Date, console, …) or of the OAuth2 library; a name
 * of the bundle's own that an Apps Script class also has goes on the list below. The Advanced Sheets
 * service's methods are checked by name only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const typesDir = path.join(root, 'node_modules/@types/google-apps-script');
/** The services the add-on uses (appsscript.json scopes, bundle.test.ts APPS_SCRIPT_SERVICES). */
const SERVICE_TYPES = [
  'base',
  'cache',
  'html',
  'lock',
  'mail',
  'properties',
  'script',
  'spreadsheet',
  'url-fetch',
  'utilities',
].map((name) => path.join(typesDir, `google-apps-script.${name}.d.ts`));
/** The Advanced Sheets service (Sheets.Spreadsheets…): its collection classes are named apart from the runtime's. */
const SHEETS_API_TYPES = path.join(typesDir, 'apis/sheets_v4.d.ts');

/** Called by the bundle, absent from the runtime on purpose. Keep it short; say why for each. */
const NOT_IN_RUNTIME: Record<string, string> = {
  // The Sync log's own open(entry) (src/server/sync/sync-log.ts); SpreadsheetApp.open(file) takes a Drive file and is never called.
  open: 'SyncLog.open, not SpreadsheetApp.open',
};

/**
 * Methods Google's reference pages document that @types/google-apps-script lacks, by class; the
 * add-on declares them itself (src/server/bigquery/connected-sheets.ts, platform/authorization-info.ts).
 * Without them a call is judged only against another class declaring the name (Sheet's
 * getDataSourcePivotTables against Range's), or not at all.
 */
const TYPINGS_GAPS: Record<string, string[]> = {
  // developers.google.com/apps-script/reference/spreadsheet/sheet#getDataSourcePivotTables()
  Sheet: ['getDataSourcePivotTables'],
  // …/spreadsheet/spreadsheet#getDataSources(), #refreshAllDataSources()
  Spreadsheet: ['getDataSources', 'refreshAllDataSources'],
  // …/spreadsheet/big-query-data-source-spec-builder, …/big-query-data-source-spec
  BigQueryDataSourceSpecBuilder: ['setTableProjectId', 'setDatasetId', 'setTableId'],
  BigQueryDataSourceSpec: ['getTableProjectId', 'getDatasetId', 'getTableId'],
  // …/script/authorization-info#getAuthorizedScopes()
  AuthorizationInfo: ['getAuthorizedScopes'],
};

/** Apps Script classes and their methods, inherited ones included (`interface Blob extends BlobSource`). */
function classesOfTypes(files: string[]): Map<string, Set<string>> {
  const own = new Map<string, { methods: Set<string>; parents: string[] }>();
  for (const [cls, methods] of Object.entries(TYPINGS_GAPS)) own.set(cls, { methods: new Set(methods), parents: [] });
  for (const file of files) {
    let current: Set<string> | null = null;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const header = /^\s*(?:export\s+)?interface\s+(\w+)(?:\s+extends\s+([\w.,\s]+))?\s*\{/.exec(line);
      if (header) {
        const entry = own.get(header[1]) ?? { methods: new Set<string>(), parents: [] };
        entry.parents.push(
          ...(header[2] ?? '')
            .split(',')
            .map((p) => p.trim().split('.').pop()!)
            .filter(Boolean),
        );
        own.set(header[1], entry);
        current = entry.methods;
        continue;
      }
      const method = /^\s+(\w+)\s*\(/.exec(line);
      if (method && current) current.add(method[1]);
    }
  }
  const all = (name: string, seen = new Set<string>()): Set<string> => {
    const entry = own.get(name);
    if (!entry || seen.has(name)) return new Set();
    seen.add(name);
    return new Set([...entry.methods, ...entry.parents.flatMap((p) => [...all(p, seen)])]);
  };
  return new Map([...own.keys()].map((name) => [name, all(name)]));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The worker's entry runs on import (it is a worker thread's main file). */
const NOT_IMPORTED = new Set(['entry.ts']);

/**
 * The runtime's classes by the Apps Script name they stand for (the class name, or its static
 * `gasName`'s last part) with their methods along the prototype chain; '*' holds the members of
 * the services built inside the worker (Utilities, Logger: `name: (…) =>`), which are no classes.
 */
async function runtimeClasses(): Promise<Map<string, Set<string>>> {
  const classes = new Map<string, Set<string>>([['*', new Set()]]);
  const add = (name: string, methods: Iterable<string>): void => {
    const set = classes.get(name) ?? new Set<string>();
    for (const m of methods) set.add(m);
    classes.set(name, set);
  };
  for (const file of filesUnder(path.join(root, 'dev/gas-runtime'))) {
    if (NOT_IMPORTED.has(path.basename(file))) continue;
    const module = (await import(file)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (typeof value !== 'function' || !value.prototype) continue;
      const gasName = (value as { gasName?: unknown }).gasName;
      const methods: string[] = [];
      for (
        let proto = value.prototype as object | null;
        proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto) as object | null
      ) {
        methods.push(...Object.getOwnPropertyNames(proto));
      }
      add(typeof gasName === 'string' ? gasName.split('.').pop()! : value.name, methods);
    }
    if (file.includes(`${path.sep}worker${path.sep}`)) {
      add(
        '*',
        [...readFileSync(file, 'utf8').matchAll(/^\s+(\w+)\s*:\s*(?:\([^)]*\)|\w+)\s*(?::\s*[^=]+)?=>/gm)].map(
          (m) => m[1],
        ),
      );
    }
  }
  return classes;
}

/** Method names JavaScript's own objects have (a call of one cannot be told from a service call by name). */
function builtinMethodNames(): Set<string> {
  const names = new Set<string>();
  for (const proto of [
    Array.prototype,
    String.prototype,
    Map.prototype,
    Set.prototype,
    Date.prototype,
    Object.prototype,
    Promise.prototype,
    RegExp.prototype,
    Number.prototype,
    Function.prototype,
  ]) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  // console is V8's in both (the runtime defines log/info/warn/error/debug in a loop, worker/context.ts).
  for (const ns of [Object, Array, JSON, Math, Number, String, Date, Promise, console])
    for (const name of Object.getOwnPropertyNames(ns)) names.add(name);
  return names;
}

/** Methods the vendored OAuth2 library defines (its calls are the library's, not a service's). */
function libraryMethodNames(): Set<string> {
  const source = readFileSync(path.join(root, '../shared/vendor/apps-script-oauth2/OAuth2.gs'), 'utf8');
  return new Set([...source.matchAll(/\.prototype\.(\w+)\s*=|^function\s+(\w+)/gm)].map((m) => m[1] ?? m[2]));
}

/** Every name the bundle calls as a method (`x.name(…)`). */
function bundleCallNames(): Set<string> {
  const ast = parse(readFileSync(path.join(root, 'dist/Code.js'), 'utf8'), {
    ecmaVersion: 'latest',
    sourceType: 'script',
  });
  const called = new Set<string>();
  simple(ast, {
    CallExpression(node) {
      const callee = node.callee;
      if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier')
        called.add(callee.property.name);
    },
  });
  return called;
}

describe('the built bundle against the runtime', () => {
  it('calls no Apps Script service method the runtime lacks (or one on the justified list)', async () => {
    const serviceClasses = classesOfTypes(SERVICE_TYPES);
    const apiMethods = classesOfTypes([SHEETS_API_TYPES]);
    const runtime = await runtimeClasses();
    const anywhere = new Set([...runtime.values()].flatMap((methods) => [...methods]));
    const builtins = builtinMethodNames();
    const library = libraryMethodNames();
    const declaring = (name: string): string[] =>
      [...serviceClasses].filter(([, methods]) => methods.has(name)).map(([cls]) => cls);
    const isApiMethod = (name: string): boolean => [...apiMethods.values()].some((methods) => methods.has(name));
    const checked = [...bundleCallNames()].filter(
      (name) => (declaring(name).length > 0 || isApiMethod(name)) && !builtins.has(name) && !library.has(name),
    );
    // The check sees the add-on's service calls at all (a parse that found none would pass anything).
    expect(checked).toEqual(
      expect.arrayContaining([
        'getRange',
        'setValues',
        'getProperty',
        'fetch',
        'deleteRows',
        'getDocumentLock',
        'batchUpdate',
      ]),
    );
    const inRuntime = (name: string): boolean => {
      const classes = declaring(name);
      if (classes.length === 0) return anywhere.has(name);
      return runtime.get('*')!.has(name) || classes.some((cls) => runtime.get(cls)?.has(name) === true);
    };
    const missing = checked.filter((name) => !inRuntime(name) && !(name in NOT_IN_RUNTIME)).sort();
    expect(missing).toEqual([]);
    // A justified entry the bundle no longer calls, or the runtime now has, is taken off the list.
    for (const name of Object.keys(NOT_IN_RUNTIME)) {
      expect(checked, `${name} is not called any more`).toContain(name);
      expect(inRuntime(name), `${name} is in the runtime now`).toBe(false);
    }
  });
});
