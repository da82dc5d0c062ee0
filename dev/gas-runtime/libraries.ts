import { parse } from 'acorn';
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LibraryCode } from './bridge/protocol.js';

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
const STANDIN_DIR = path.join(here, 'libraries');

/** Names a script declares at top level (function, var, let, const, class): a library's namespace. */
export function topLevelNames(source: string, filename: string): string[] {
  let program;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  } catch (error) {
    throw new Error(`Library ${filename} is not a valid Apps Script file: ${(error as Error).message}`);
  }
  const names: string[] = [];
  for (const node of program.body) {
    if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) names.push(node.id.name);
    if (node.type === 'VariableDeclaration') {
      for (const decl of node.declarations) if (decl.id.type === 'Identifier') names.push(decl.id.name);
    }
  }
  return [...new Set(names)];
}

function standInCandidates(userSymbol: string): string[] {
  const lower = userSymbol.toLowerCase();
  return [`${userSymbol}.standin.js`, `${userSymbol}.standin.ts`, `${lower}-standin.js`, `${lower}-standin.ts`].map((f) => path.join(STANDIN_DIR, f));
}

/**
 * Where a library's source comes from: env GAS_LIBRARY_<userSymbol>, else options.libraries,
 * else the built-in stand-in in dev/gas-runtime/libraries/.
 */
export function resolveLibraryFile(userSymbol: string, configured: Record<string, string> | undefined): string {
  const fromEnv = process.env[`GAS_LIBRARY_${userSymbol}`];
  if (fromEnv) return path.resolve(fromEnv);
  const fromOptions = configured?.[userSymbol];
  if (fromOptions) return path.resolve(fromOptions);
  const standIn = standInCandidates(userSymbol).find((f) => existsSync(f));
  if (standIn) return standIn;
  throw new Error(`Library ${userSymbol} has no source: set GAS_LIBRARY_${userSymbol}=/path/to/file.gs or add a stand-in in ${STANDIN_DIR}`);
}

/** A .ts stand-in is compiled to a plain script; top-level declarations stay global, as in a .gs file. */
async function scriptSource(file: string): Promise<string> {
  if (!file.endsWith('.ts')) return readFile(file, 'utf8');
  const result = await build({ entryPoints: [file], bundle: true, format: 'iife', globalName: '__library', platform: 'neutral', target: 'es2020', write: false, logLevel: 'silent' });
  const bundled = result.outputFiles[0].text;
  const exportsOf = /\bexport\b/.test(await readFile(file, 'utf8'));
  if (!exportsOf) {
    // No exports: keep the file's own top-level declarations as the namespace.
    const plain = await build({ entryPoints: [file], bundle: false, format: undefined, loader: { '.ts': 'ts' }, target: 'es2020', write: false, logLevel: 'silent' });
    return plain.outputFiles[0].text;
  }
  // ES exports become top-level declarations of the script, so the namespace is the exports.
  return `${bundled}\n`;
}

export async function loadLibrary(userSymbol: string, configured: Record<string, string> | undefined): Promise<LibraryCode> {
  const file = resolveLibraryFile(userSymbol, configured);
  let source: string;
  try {
    source = await scriptSource(file);
  } catch (error) {
    throw new Error(`Cannot load library ${userSymbol} from ${file}: ${(error as Error).message}`);
  }
  if (file.endsWith('.ts') && source.includes('var __library')) {
    // Expose each export of the bundled module as a top-level binding.
    const exportNames = await moduleExportNames(file);
    const declarations = exportNames.map((n) => `var ${n} = __library.${n};`).join('\n');
    return { userSymbol, source: `${source}\n${declarations}`, exportNames, filename: file };
  }
  return { userSymbol, source, exportNames: topLevelNames(source, file), filename: file };
}

async function moduleExportNames(file: string): Promise<string[]> {
  const result = await build({ entryPoints: [file], bundle: true, format: 'esm', platform: 'neutral', target: 'es2020', write: false, logLevel: 'silent', metafile: true });
  const outputs = Object.values(result.metafile?.outputs ?? {});
  return outputs.flatMap((o) => o.exports).filter((n) => n !== 'default');
}
