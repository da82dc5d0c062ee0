import { readFile } from 'node:fs/promises';
import path from 'node:path';

const SHIM_PATH = path.join(__dirname, 'public', 'gas-shim.js');

/** The sidebar page with the google.script.run shim as the first script of <head>, before the add-on's own. */
export async function injectShim(
  sidebarHtml: string,
  globalNames: readonly string[],
  runPath = '/playground/run',
): Promise<string> {
  const setup = `window.__GAS_GLOBALS__=${JSON.stringify(globalNames)};window.__GAS_RUN_PATH__=${JSON.stringify(runPath)};`;
  const script = `${setup}\n${await readFile(SHIM_PATH, 'utf8')}`.replace(/<\/script/gi, '<\\/script');
  const tag = `<script>${script}</script>`;
  const head = /<head[^>]*>/i.exec(sidebarHtml);
  if (!head) return tag + sidebarHtml;
  const at = head.index + head[0].length;
  return sidebarHtml.slice(0, at) + tag + sidebarHtml.slice(at);
}

/** The Apps Script globals of a built dist/Code.js: its top-level `function NAME(` declarations. */
export function globalsOfBundle(codeJs: string): string[] {
  const names: string[] = [];
  const pattern = /^function ([A-Za-z_$][A-Za-z0-9_$]*)\s*\(/gm;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(codeJs)) !== null) {
    const name = match[1]!;
    if (!name.endsWith('_')) names.push(name);
  }
  return names;
}

/** The globals Sheets offers as custom functions: those whose JSDoc says `@customfunction`. */
export function customFunctionsOfBundle(codeJs: string): string[] {
  const names: string[] = [];
  const pattern = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*function ([A-Za-z_$][A-Za-z0-9_$]*)\s*\(/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(codeJs)) !== null) {
    if (/@customfunction\b/.test(match[1]!) && !match[2]!.endsWith('_')) names.push(match[2]!);
  }
  return names;
}
