/**
 * The bench's bundle: a copy of dist/ whose Code.js is the built add-on followed by the
 * alternatives (bench/alternatives/*.js), as extra .gs files of the same Apps Script project would
 * be. Written under out/ (git-ignored); dist/ itself never holds them.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const ALTERNATIVES = path.join(__dirname, 'alternatives');

export function writeBenchBundle(
  distDir = path.join(ROOT, 'dist'),
  outDir = path.join(ROOT, 'out', 'bench-dist'),
): string {
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(distDir)) {
    if (file !== 'Code.js') copyFileSync(path.join(distDir, file), path.join(outDir, file));
  }
  const parts = [readFileSync(path.join(distDir, 'Code.js'), 'utf8')];
  for (const file of readdirSync(ALTERNATIVES)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    parts.push(`\n// ---- bench/alternatives/${file} ----\n${readFileSync(path.join(ALTERNATIVES, file), 'utf8')}`);
  }
  writeFileSync(path.join(outDir, 'Code.js'), parts.join('\n'));
  return outDir;
}
