/**
 * The README stays a front page (at most 150 lines, the two commands first) and its map reaches
 * every document of the repository; every relative link on the way resolves, its #heading too, and
 * every citation of a document's heading in the code names a heading that document has, so a
 * moved section cannot leave a dead pointer behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function headings(file: string): string[] {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.trim());
}

/** Relative links of a Markdown file, outside code blocks: the file they name and the heading anchor. */
function links(file: string): { target: string; hash: string; text: string }[] {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [rel, hash = ''] = href.split('#');
      const target = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      return { target, hash, text: href };
    });
}

/** Every document reached from the README through relative links, and each broken link met. */
function walk(): { reached: Set<string>; broken: string[] } {
  const reached = new Set<string>();
  const broken: string[] = [];
  const queue = ['README.md'];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const link of links(file)) {
      const full = path.join(root, link.target);
      if (!existsSync(full)) {
        broken.push(`${file}: ${link.text} (no such file)`);
        continue;
      }
      if (statSync(full).isDirectory()) continue;
      if (!link.target.endsWith('.md')) continue;
      if (link.hash && !headings(link.target).some((h) => anchor(h) === link.hash)) {
        broken.push(`${file}: ${link.text} (no such heading)`);
      }
      queue.push(link.target);
    }
  }
  return { reached, broken };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' ? [] : sourceFiles(rel);
    return /\.(ts|mts|js)$/.test(e.name) ? [rel] : [];
  });
}

describe('the README as a front page', () => {
  it('is at most 150 lines and starts with the two commands that work on a fresh machine', () => {
    const lines = read('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(150);
    const firstBlock = read('README.md').split('```')[1] ?? '';
    expect(firstBlock).toMatch(/^sh\nnpm ci && npm start\b/);
    expect(firstBlock).toMatch(/\nnpm ci && npm test\b/);
  });

  it('reaches the user guide, deploy, architecture and the README beside each part, and every link on the way resolves', () => {
    const { reached, broken } = walk();
    expect(broken).toEqual([]);
    for (const doc of [
      'docs/user-guide/README.md',
      'docs/user-guide/sidebar.md',
      'docs/user-guide/custom-functions.md',
      'docs/user-guide/syncing.md',
      'docs/user-guide/finance-workspace.md',
      'docs/user-guide/tie-out.md',
      'docs/user-guide/connecting-a-store.md',
      'docs/user-guide/failure-emails.md',
      'docs/deploy.md',
      'docs/architecture.md',
      'dev/emulator/README.md',
      'dev/gas-runtime/README.md',
      'dev/playground/README.md',
      'dev/demo/README.md',
      'test/README.md',
      'bench/README.md',
    ]) {
      expect(reached, doc).toContain(doc);
    }
  });

  it('leaves no citation in the code pointing at a heading its document does not have', () => {
    const cited: string[] = [];
    for (const file of ['src', 'dev', 'test', 'bench'].flatMap(sourceFiles)) {
      const comments = read(file).replace(/\n\s*(?:\*|\/\/)\s*/g, ' ');
      for (const m of comments.matchAll(/\(((?:docs\/[\w/-]+|[\w/-]*README)\.md|README), "([^"]+)"/g)) {
        const doc = m[1] === 'README' ? 'README.md' : m[1]!;
        const ok = existsSync(path.join(root, doc)) && headings(doc).includes(m[2]!);
        if (!ok) cited.push(`${file}: ${doc}, "${m[2]}"`);
      }
    }
    expect(cited).toEqual([]);
  });
});
