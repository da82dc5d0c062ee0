/**
 * Comments say why, in the code's own words: an issue number means nothing to the next reader and
 * nothing checks it stays true. Every TypeScript comment in src/, dev/, test/, bench/, scripts/
 * and build/ is read for one ("issue 23", "Issues 22 and 24", "Issue #12").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const FOLDERS = ['src', 'dev', 'test', 'bench', 'scripts', 'build'];
const CITES_ISSUE = /\b[Ii]ssues? ?#?\d+/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes('node_modules') && file !== 'test/unit/comments-cite-no-issue.test.ts');
}

/** The comment lines of a file that cite an issue, as "line: text". */
function citations(text: string): string[] {
  const found: string[] = [];
  let inBlock = false;
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    const comment = inBlock || trimmed.startsWith('/*') ? trimmed : (/\/\/(.*)$/.exec(line)?.[1] ?? '');
    if (trimmed.startsWith('/*')) inBlock = !trimmed.includes('*/');
    else if (inBlock && trimmed.includes('*/')) inBlock = false;
    if (CITES_ISSUE.test(comment)) found.push(`${i + 1}: ${trimmed}`);
  });
  return found;
}

describe('comments cite no issue', () => {
  it('no comment in the code, its tools or its tests names an issue number', () => {
    const citing = FOLDERS.flatMap(sourceFiles).flatMap((file) =>
      citations(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}:${line}`),
    );
    expect(citing).toEqual([]);
  });

  it('finds a citation in a block comment, a line comment and a trailing comment, and none in code', () => {
    const text = [
      '/**',
      ' * Issue 23: why',
      ' */',
      'const a = 1; // see issue 4',
      '// issue #7',
      "const s = 'issue 9';",
      '// order #1001',
    ];
    expect(citations(text.join('\n'))).toEqual([
      '2: * Issue 23: why',
      '4: const a = 1; // see issue 4',
      '5: // issue #7',
    ]);
  });
});
