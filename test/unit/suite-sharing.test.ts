/**
 * The vitest projects run their files in shared workers (`isolate: false`): a file's module
 * mocks, fake timers, spies and Apps Script stand-ins on globalThis would leak into the next file.
 * Each file that sets such a thing must undo it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const SHARED = [
  'test/unit',
  'test/e2e',
  'test/bundle',
  'test/runtime',
  'test/emulator',
  'test/integration',
  'test/reliability',
  'test/perf',
];

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('test/runtime/fixtures/') && file !== 'test/unit/suite-sharing.test.ts');
}

/** What a file leaves set for the next file in its worker. */
function leftBehind(text: string): string[] {
  const left: string[] = [];
  if (/\bvi\.(do)?[mM]ock\(/.test(text)) left.push('vi.mock (a module mock lasts for the worker)');
  if (/\bvi\.useFakeTimers\(/.test(text) && !/\bvi\.useRealTimers\(/.test(text))
    left.push('fake timers never made real again');
  if (/\bvi\.spyOn\(/.test(text) && !/\b(mockRestore|restoreAllMocks)\(/.test(text)) left.push('spies never restored');
  if (/\bvi\.stub(Global|Env)\(/.test(text) && !/\bvi\.unstubAll(Globals|Envs)\(/.test(text))
    left.push('stubs never undone');
  if (
    /Object\.assign\(globalThis|\bglobalThis\.[A-Za-z]+\s*=[^=]|\bg\[['"][A-Za-z]+['"]\]\s*=[^=]/.test(text) &&
    !/\bdelete\b/.test(text)
  )
    left.push('globals set and never deleted');
  return left;
}

describe('suites that share a worker leave it as they found it', () => {
  it('no test file in a shared project mocks a module or leaves timers, spies, stubs or globals behind', () => {
    const offenders = SHARED.flatMap(testFiles)
      .map((file) => ({ file, left: leftBehind(readFileSync(path.join(root, file), 'utf8')) }))
      .filter((found) => found.left.length > 0);
    expect(offenders).toEqual([]);
  });

  it('the check names each thing a file leaves behind', () => {
    expect(
      leftBehind("vi.mock('x'); vi.useFakeTimers(); vi.spyOn(Math, 'random'); Object.assign(globalThis, {});"),
    ).toEqual([
      'vi.mock (a module mock lasts for the worker)',
      'fake timers never made real again',
      'spies never restored',
      'globals set and never deleted',
    ]);
    expect(leftBehind('vi.useFakeTimers(); vi.useRealTimers(); Object.assign(globalThis, {}); delete g.x;')).toEqual(
      [],
    );
  });
});
