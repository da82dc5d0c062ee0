import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import type { Identifier, Node, Program } from 'acorn';
import vm from 'node:vm';

/**
 * Every global a fresh V8 context has (the ECMAScript built-ins), but `globalThis` itself and
 * `console` (the runtime's own, used on error paths only).
 */
export const STANDARD_GLOBALS: readonly string[] = (
  vm.runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]
).filter((name) => name !== 'globalThis' && name !== 'console');

interface Declarator {
  id: Node;
}

/** The statements of `var NAME = (() => { ... })()` in a script: the bundle's IIFE body. */
function iifeBody(program: Program, name: string): Node[] {
  for (const statement of program.body) {
    if (statement.type !== 'VariableDeclaration') continue;
    for (const d of statement.declarations) {
      const init = d.init;
      if (d.id.type !== 'Identifier' || d.id.name !== name || init?.type !== 'CallExpression') continue;
      const callee = init.callee;
      if (callee.type === 'ArrowFunctionExpression' && callee.body.type === 'BlockStatement') return callee.body.body;
    }
  }
  throw new Error(`no IIFE assigned to ${name}`);
}

function declaresHelper(statement: Node): boolean {
  return (statement as unknown as { declarations: Declarator[] }).declarations.every(
    (d) => d.id.type === 'Identifier' && (d.id as Identifier).name.startsWith('__'),
  );
}

/**
 * Standard built-ins the IIFE `name` reads as globals: referenced anywhere inside it and not
 * declared at its top level. In the runtime's vm context each such read is an interceptor call.
 * Coarse the other way round: a reference an inner local binds counts as a global read.
 */
export function builtinsReadAsGlobals(source: string, name: string): string[] {
  const body = iifeBody(parse(source, { ecmaVersion: 2022, sourceType: 'script' }) as Program, name);
  const declared = new Set<string>();
  for (const statement of body) {
    if (statement.type === 'VariableDeclaration')
      for (const d of (statement as unknown as { declarations: Declarator[] }).declarations)
        if (d.id.type === 'Identifier') declared.add((d.id as Identifier).name);
    if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration')
      declared.add((statement as unknown as { id: Identifier }).id.name);
  }
  const read = new Set<string>();
  // esbuild's own helpers (__export, __defProp, ...) come before any module and run once, at load.
  const modules = body.filter((s) => !(s.type === 'VariableDeclaration' && declaresHelper(s)));
  const visitors = {
    Identifier(node: Node) {
      const id = (node as Identifier).name;
      if (STANDARD_GLOBALS.includes(id) && !declared.has(id)) read.add(id);
    },
  } as Parameters<typeof ancestor>[1];
  for (const statement of modules) ancestor(statement, visitors);
  return [...read].sort();
}
