/**
 * src/server's folders form layers: `npm run imports` finds no folder-level import cycle and no
 * file-level one, and lint refuses an import that points up the layer order, naming the layer rule it breaks.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { folderGraph, ROOT_FOLDER } from '../../scripts/import-graph';

const root = path.resolve(__dirname, '../..');

function importGraph(dir: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/import-graph.ts'), dir], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout };
}

describe('npm run imports: the folder-level import graph', () => {
  const trees: string[] = [];
  afterAll(() => trees.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('src/server has no folder-level import cycle', () => {
    const run = importGraph('src/server');
    expect(run.stdout).not.toMatch(/cycle: /);
    expect(run.stdout).toMatch(/No cycles\./);
    expect(run.status).toBe(0);
  });

  it('names a cycle closed by `import type` and `export … from` through an index, and exits 1', () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'import-graph-'));
    trees.push(tree);
    for (const dir of ['low', 'high', 'other']) mkdirSync(path.join(tree, dir));
    writeFileSync(
      path.join(tree, 'low/clock.ts'),
      "import type { Runner } from '../high/runner';\nexport type C = Runner;\n",
    );
    writeFileSync(path.join(tree, 'high/index.ts'), "export { runner } from './runner';\n");
    writeFileSync(path.join(tree, 'high/runner.ts'), 'export type Runner = number;\nexport const runner = 1;\n');
    writeFileSync(path.join(tree, 'other/uses.ts'), "export { runner } from '../high';\n");
    writeFileSync(path.join(tree, 'high/clock-user.ts'), "export type { C } from '../low/clock';\n");

    const run = importGraph(tree);
    expect(run.stdout).toMatch(/ {2}high -> low: 1\n/);
    expect(run.stdout).toMatch(/ {2}other -> high: 1\n/);
    expect(run.stdout).toMatch(/1 cycle\(s\):\n {2}cycle: high -> low -> high\n/);
    expect(run.status).toBe(1);
  });

  it('src/server has no file-level import cycle, type-only imports included', () => {
    const run = importGraph('src/server');
    expect(run.stdout).not.toMatch(/file cycle: /);
    expect(run.stdout).toMatch(/No file-level cycles\./);
    expect(run.status).toBe(0);
  });

  it('names a file-level cycle inside one folder closed by `import type` and `export … from`, and exits 1', () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'import-graph-'));
    trees.push(tree);
    mkdirSync(path.join(tree, 'sheets'));
    writeFileSync(
      path.join(tree, 'sheets/schema.ts'),
      "export { columnIndex } from './positions';\nexport type Table = string;\n",
    );
    writeFileSync(
      path.join(tree, 'sheets/positions.ts'),
      "import type { Table } from './schema';\nexport const columnIndex = (t: Table): number => t.length;\n",
    );
    writeFileSync(
      path.join(tree, 'sheets/reader.ts'),
      "import { columnIndex } from './schema';\nexport const n = columnIndex('x');\n",
    );

    const run = importGraph(tree);
    expect(run.stdout).toMatch(/No cycles\./);
    expect(run.stdout).toMatch(
      /1 file-level cycle\(s\):\n {2}file cycle: sheets\/positions\.ts -> sheets\/schema\.ts -> sheets\/positions\.ts\n?/,
    );
    expect(run.status).toBe(1);
  });
});

describe('lint enforces the layers', () => {
  const eslint = new ESLint({ cwd: root });

  async function layerErrors(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${source}\nexport const probe = value;\n`, { filePath: file });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it('a platform file importing the sync runner fails with the platform layer rule', async () => {
    const errors = await layerErrors('src/server/platform/probe.ts', "import { value } from '../sync/runner';");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^'\.\.\/sync\/runner' import is restricted from being used by a pattern\. Layer rule "platform"/,
    );
  });

  it('an upward `import type` and `export … from` fail too: state may not read finance, api may not read auth', async () => {
    expect(await layerErrors('src/server/state/probe.ts', "import type { value } from '../finance/basis';")).toEqual([
      expect.stringMatching(/Layer rule "state"/),
    ]);
    expect(await layerErrors('src/server/api/probe.ts', "export { value } from '../auth';\nconst value = 1;")).toEqual([
      expect.stringMatching(/Layer rule "api"/),
    ]);
  });

  it('lint allows every folder-level import src/server has, and refuses each one reversed', async () => {
    const { edges } = folderGraph(path.join(root, 'src/server'));
    const probe = (folder: string): string => (folder.startsWith('src/') ? folder : `src/server/${folder}`);
    const allowed: string[] = [];
    const refused: string[] = [];
    for (const [from, targets] of edges) {
      if (from === ROOT_FOLDER) continue;
      for (const to of targets.keys()) {
        const down = path.relative(probe(from), probe(to)) + '/x';
        if ((await layerErrors(`${probe(from)}/probe.ts`, `import { value } from '${down}';`)).length === 0)
          allowed.push(`${from} -> ${to}`);
        const up = path.relative(probe(to), probe(from)) + '/x';
        if ((await layerErrors(`${probe(to)}/probe.ts`, `import { value } from '${up}';`)).length > 0)
          refused.push(`${to} -> ${from}`);
      }
    }
    const all = [...edges].flatMap(([from, targets]) =>
      from === ROOT_FOLDER ? [] : [...targets.keys()].map((to) => `${from} -> ${to}`),
    );
    expect(all.length).toBeGreaterThan(30);
    expect(allowed).toEqual(all);
    expect(refused).toEqual(all.map((edge) => edge.split(' -> ').reverse().join(' -> ')));
  });
});
