import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..', '..');

/**
 * The real apps-script-oauth2 release the manifest pins (version 43 = tag v1.43.0), kept beside the
 * project at ../shared/vendor (no npm package ships it). Resolved from the repository root, so any
 * clone or worktree next to `shared` finds it.
 */
export const REAL_OAUTH2_LIBRARY = path.resolve(ROOT, '..', 'shared', 'vendor', 'apps-script-oauth2', 'OAuth2.gs');

/** The runtime's stand-in, for what the real library cannot do locally and for the comparison test. */
export const OAUTH2_STANDIN = path.join(ROOT, 'dev', 'gas-runtime', 'libraries', 'oauth2-standin.ts');

/**
 * The libraries a stack loads unless told otherwise: the real OAuth2 library when its file is
 * present, else nothing (the runtime then takes env GAS_LIBRARY_OAuth2, else its stand-in). An
 * explicit GAS_LIBRARY_OAuth2 still wins: the runtime reads the environment first.
 */
export function defaultLibraries(): Record<string, string> | undefined {
  return existsSync(REAL_OAUTH2_LIBRARY) ? { OAuth2: REAL_OAUTH2_LIBRARY } : undefined;
}

/** Which OAuth2 library a runtime loaded: 'real', 'stand-in', or the path of another file. */
export function oauth2Source(libraryFiles: Record<string, string>): string {
  const file = libraryFiles['OAuth2'];
  if (!file) return 'none';
  if (path.resolve(file) === REAL_OAUTH2_LIBRARY) return 'real';
  if (path.resolve(file) === OAUTH2_STANDIN) return 'stand-in';
  return path.resolve(file);
}
