/**
 * `npm run typecheck` inside the suite: the add-on's server code, the sidebar and the Node-side code
 * each type-check clean under their own tsconfig. Run here, tsc's single-threaded minute shares the
 * cores with the other suites instead of running alone before them.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);

/** tsc's report: empty when the project type-checks, else its errors. */
async function typeErrors(project: string): Promise<string> {
  try {
    await run(process.execPath, [tsc, '-p', project], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return '';
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
  }
}

describe('npm run typecheck', () => {
  it.each(['tsconfig.json', 'tsconfig.sidebar.json', 'tsconfig.dev.json'])(
    'tsc -p %s finds no type error',
    async (project) => {
      expect(await typeErrors(project)).toBe('');
    },
  );
});
