/**
 * The benchmarks run under plain Node (npm run bench), not vitest, and borrow the truth comparisons
 * of the integration tests' support files: those files must load without vitest, which throws
 * when imported outside a test ("Vitest cannot be imported in a CommonJS module").
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** The test/ modules the bench imports, as paths from the repository root. */
function benchImportsFromTest(): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.ts')))
    for (const m of readFileSync(path.join(root, 'bench', file), 'utf8').matchAll(/from '\.\.\/(test\/[^']+)'/g))
      found.add(`${m[1]}.ts`);
  return [...found].sort();
}

describe('the bench', () => {
  it('loads the test support files it imports outside vitest', () => {
    const modules = benchImportsFromTest();
    expect(modules.length).toBeGreaterThan(0);
    const script = modules.map((m) => `await import(${JSON.stringify(path.join(root, m))});`).join(' ');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined },
    });
    expect(run.stderr).not.toMatch(/Vitest cannot be imported/);
    expect(run.status, run.stderr).toBe(0);
  });
});
