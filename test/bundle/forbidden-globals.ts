import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import type { Identifier, Node } from 'acorn';

/** Globals that the Apps Script V8 runtime does not have (apps-script-facts.md, "The V8 runtime"). */
export const FORBIDDEN_GLOBALS = [
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'fetch',
  'atob',
  'btoa',
  'crypto',
  'process',
  'Buffer',
  'require',
  'structuredClone',
  'Blob',
  'FormData',
  'window',
  'navigator',
  'performance',
];

/**
 * Names from FORBIDDEN_GLOBALS that the script reads as free variables. A name counts as bound when
 * any binding anywhere in the file (variable, function, parameter, catch clause) introduces it:
 * deliberately coarse, so that a false alarm is possible but a real use cannot slip through.
 * acorn-walk visits bindings as VariablePattern and references as Identifier; property names of
 * member expressions and object keys are not visited at all.
 */
export function forbiddenGlobalsUsed(source: string): string[] {
  const program = parse(source, { ecmaVersion: 2022, sourceType: 'script' }) as Node;
  const bound = new Set<string>();
  const referenced = new Set<string>();
  // VariablePattern is a pseudo node type of acorn-walk's base walker, absent from its typings.
  const visitors = {
    VariablePattern(node: Node) {
      bound.add((node as Identifier).name);
    },
    Identifier(node: Node) {
      const { name } = node as Identifier;
      if (FORBIDDEN_GLOBALS.includes(name)) referenced.add(name);
    },
  } as Parameters<typeof ancestor>[1];
  ancestor(program, visitors);
  return [...referenced].filter((name) => !bound.has(name)).sort();
}
