import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One Apps Script global: a function exported from src/server/main.ts. */
export interface GlobalFunction {
  name: string;
  params: string[];
  /** The JSDoc block as written above the export, or '' when there is none. */
  jsDoc: string;
  isCustomFunction: boolean;
}

/** An entry file a re-export names: its source and the name problems are reported under. */
export interface EntryFile {
  source: string;
  fileName: string;
}

/** Finds the file `export { ... } from specifier` names, relative to the file that says it; null when none. */
export type EntryResolver = (specifier: string, fromFile: string) => EntryFile | null;

interface Read {
  globals: GlobalFunction[];
  problems: string[];
}

/**
 * Reads the globals main.ts exports. Only `export function NAME(...)` declarations may be exported:
 * anything else (consts, classes, default exports) cannot become a top-level function declaration
 * and is reported as a problem. With `resolve`, main.ts may also list globals declared in entry files
 * (`export { a, b } from './entries/x'`, never renamed): each keeps the JSDoc written in its entry
 * file, the order is main.ts's, and an entry file's export main.ts does not list is a problem (it
 * would silently not become a global).
 */
export function readGlobals(source: string, fileName = 'main.ts', resolve?: EntryResolver): Read {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2020, true, ts.ScriptKind.TS);
  const globals: GlobalFunction[] = [];
  const problems: string[] = [];
  /** Per entry file: what it declares, and which of those this file lists. */
  const entries = new Map<string, { declared: GlobalFunction[]; listed: Set<string> }>();
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && resolve) {
      const listed = reExported(statement, file, fileName, resolve);
      globals.push(...listed.globals);
      problems.push(...listed.problems.filter((p) => problems.indexOf(p) < 0));
      if (listed.entry) {
        const seen = entries.get(listed.entry) ?? { declared: listed.declared, listed: new Set<string>() };
        listed.globals.forEach((g) => seen.listed.add(g.name));
        entries.set(listed.entry, seen);
      }
      continue;
    }
    const exported =
      ts.canHaveModifiers(statement) &&
      (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) {
      problems.push(
        `${fileName}: "${statement.getText(file).split('\n')[0]}" — export globals as \`export function NAME()\``,
      );
      continue;
    }
    if (!exported) continue;
    if (!ts.isFunctionDeclaration(statement) || !statement.name) {
      problems.push(
        `${fileName}: "${statement.getText(file).split('\n')[0]}" is exported but is not a named function declaration`,
      );
      continue;
    }
    const name = statement.name.text;
    const jsDocNodes = ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc);
    const jsDoc = jsDocNodes.map((doc) => doc.getText(file)).join('\n');
    if (!jsDoc) problems.push(`${fileName}: global ${name} has no JSDoc`);
    if (name.endsWith('_'))
      problems.push(`${fileName}: global ${name} ends in "_", which Apps Script treats as private`);
    globals.push({
      name,
      params: statement.parameters.map((p) => p.name.getText(file).replace(/[^A-Za-z0-9_$]/g, '') || 'arg'),
      jsDoc,
      isCustomFunction: /@customfunction\b/.test(jsDoc),
    });
  }
  entries.forEach(({ declared, listed }, entry) => {
    for (const g of declared)
      if (!listed.has(g.name)) problems.push(`${entry}: ${g.name} is exported but ${fileName} does not list it`);
  });
  return { globals, problems };
}

/**
 * `export { a, b } from './x'`: the globals a and b as ./x declares them. A rename would give the
 * global another name than the declaration its JSDoc sits on, and `export *` would hide from main.ts
 * which globals there are: both are refused.
 */
function reExported(
  statement: ts.ExportDeclaration,
  file: ts.SourceFile,
  fileName: string,
  resolve: EntryResolver,
): Read & { entry: string | null; declared: GlobalFunction[] } {
  const text = statement.getText(file).split('\n')[0];
  const specifier =
    statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : null;
  const clause = statement.exportClause;
  if (statement.isTypeOnly || specifier === null || !clause || !ts.isNamedExports(clause))
    return {
      globals: [],
      problems: [`${fileName}: "${text}" — list globals as \`export { NAME } from './entry'\``],
      entry: null,
      declared: [],
    };
  const entry = resolve(specifier, fileName);
  if (!entry)
    return {
      globals: [],
      problems: [`${fileName}: "${text}" — ${specifier} cannot be read`],
      entry: null,
      declared: [],
    };
  const declared = readGlobals(entry.source, entry.fileName, resolve);
  const problems = declared.problems.slice();
  const globals: GlobalFunction[] = [];
  for (const element of clause.elements) {
    const name = element.name.text;
    if (element.propertyName || element.isTypeOnly) {
      problems.push(`${fileName}: "${element.getText(file)}" — re-export a global under its own name`);
      continue;
    }
    const global = declared.globals.find((g) => g.name === name);
    if (global) globals.push(global);
    else problems.push(`${fileName}: ${name} is not an \`export function\` of ${entry.fileName}`);
  }
  return { globals, problems, entry: entry.fileName, declared: declared.globals };
}

/** Resolves relative `.ts` entry files on disk; names are reported relative to `root`. */
export function entryFilesUnder(root: string): EntryResolver {
  return (specifier, fromFile) => {
    if (!specifier.startsWith('.')) return null;
    const fileName = path.join(path.dirname(fromFile), `${specifier}.ts`);
    try {
      return { source: readFileSync(path.join(root, fileName), 'utf8'), fileName };
    } catch {
      return null;
    }
  };
}

/** The globals of an entry file (e.g. src/server/main.ts) and the entry files it lists, read from disk. */
export function readGlobalsOf(root: string, fileName: string): Read {
  return readGlobals(readFileSync(path.join(root, fileName), 'utf8'), fileName, entryFilesUnder(root));
}

/** Top-level declarations that expose the bundle's exports as Apps Script globals. */
export function renderGlobalDeclarations(globals: GlobalFunction[], namespace: string): string {
  return globals
    .map((g) => {
      const doc = g.jsDoc ? `${g.jsDoc}\n` : '';
      return `${doc}function ${g.name}(${g.params.join(', ')}) {\n  return ${namespace}.${g.name}.apply(this, arguments);\n}\n`;
    })
    .join('\n');
}
