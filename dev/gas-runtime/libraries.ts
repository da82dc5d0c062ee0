import { parse } from 'acorn';
import { build, transform } from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LibraryCode } from './bridge/protocol.js';

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
const STANDIN_DIR = path.join(here, 'libraries');

/** Names a script declares at top level (function, var, let, const, class): a library's namespace. */
function topLevelNames(source: string, filename: string): string[] {
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
  return [`${userSymbol}.standin.js`, `${userSymbol}.standin.ts`, `${lower}-standin.js`, `${lower}-standin.ts`].map(
    (f) => path.join(STANDIN_DIR, f),
  );
}

/**
 * Where a library's source comes from: env GAS_LIBRARY_<userSymbol>, else options.libraries,
 * else the built-in stand-in in dev/gas-runtime/libraries/.
 */
function resolveLibraryFile(userSymbol: string, configured: Record<string, string> | undefined): string {
  const fromEnv = process.env[`GAS_LIBRARY_${userSymbol}`];
  if (fromEnv) return path.resolve(fromEnv);
  const fromOptions = configured?.[userSymbol];
  if (fromOptions) return path.resolve(fromOptions);
  const standIn = standInCandidates(userSymbol).find((f) => existsSync(f));
  if (standIn) return standIn;
  throw new Error(
    `Library ${userSymbol} has no source: set GAS_LIBRARY_${userSymbol}=/path/to/file.gs or add a stand-in in ${STANDIN_DIR}`,
  );
}

/** A library's code as the worker evaluates it; exportNames null = its top-level declarations. */
interface LibraryScript {
  source: string;
  exportNames: string[] | null;
}

/** True when the (already type-stripped) code has real import/export statements, not the word in a comment or string. */
export function hasModuleSyntax(code: string): boolean {
  let program;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
  } catch {
    // Not valid as a module (e.g. sloppy-mode code): certainly a script.
    return false;
  }
  return program.body.some((node) => node.type === 'ImportDeclaration' || node.type.startsWith('Export'));
}

/**
 * A .ts stand-in is compiled to a plain script whose top-level declarations stay global, as in a
 * .gs file. Only one with real ES exports is bundled, and then its exports are the namespace.
 */
async function scriptSource(file: string): Promise<LibraryScript> {
  const text = await readFile(file, 'utf8');
  if (!file.endsWith('.ts')) return { source: text, exportNames: null };
  const plain = await transform(text, { loader: 'ts', target: 'es2022', sourcefile: file, logLevel: 'silent' });
  if (!hasModuleSyntax(plain.code)) return { source: plain.code, exportNames: null };
  const result = await build({
    entryPoints: [file],
    bundle: true,
    format: 'iife',
    globalName: '__library',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const exportNames = await moduleExportNames(file);
  // Each export of the bundled module becomes a top-level binding of the script.
  const declarations = exportNames.map((n) => `var ${n} = __library.${n};`).join('\n');
  return { source: `${result.outputFiles[0].text}\n${declarations}`, exportNames };
}

export async function loadLibrary(
  userSymbol: string,
  configured: Record<string, string> | undefined,
): Promise<LibraryCode> {
  const file = resolveLibraryFile(userSymbol, configured);
  let script: LibraryScript;
  try {
    script = await scriptSource(file);
  } catch (error) {
    throw new Error(`Cannot load library ${userSymbol} from ${file}: ${(error as Error).message}`);
  }
  const exportNames = script.exportNames ?? topLevelNames(script.source, file);
  return { userSymbol, source: script.source, exportNames, filename: file };
}

async function moduleExportNames(file: string): Promise<string[]> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const outputs = Object.values(result.metafile?.outputs ?? {});
  return outputs.flatMap((o) => o.exports).filter((n) => n !== 'default');
}
