import ts from 'typescript';

/** One Apps Script global: a function exported from src/server/main.ts. */
export interface GlobalFunction {
  name: string;
  params: string[];
  /** The JSDoc block as written above the export, or '' when there is none. */
  jsDoc: string;
  isCustomFunction: boolean;
}

/**
 * Reads the globals main.ts exports. Only `export function NAME(...)` declarations may be exported:
 * anything else (re-exports, consts, classes, default exports) cannot become a top-level function
 * declaration and is reported as a problem.
 */
export function readGlobals(source: string, fileName = 'main.ts'): { globals: GlobalFunction[]; problems: string[] } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2020, true, ts.ScriptKind.TS);
  const globals: GlobalFunction[] = [];
  const problems: string[] = [];
  for (const statement of file.statements) {
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
  return { globals, problems };
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
