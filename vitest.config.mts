import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Suites under test/unit that read the built bundle (dist/, from `npm run build`) or build it: the
 * deploy command's suite copies the project and builds it three times.
 */
const BUILT = [
  'test/unit/build-manifest.test.ts',
  'test/unit/manifest-scopes.test.ts',
  'test/unit/deploy-command.test.ts',
];

/** A project of this config: its name and the test files that are its own. */
function project(
  name: string,
  include: string[],
  test: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, ...test } };
}

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not measurements (no test asserts on wall time): an integration suite that takes
    // 10 s alone took over 60 s on two cores shared with five other test runs.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // `npx vitest run --project unit` runs one of these; `vitest run` runs them all in one pool.
    projects: [
      // Modules and fakes: no stack, no built bundle. Worker threads (each file still isolated) start
      // cheaper than forked processes; the stack-starting projects keep a process per file.
      project('unit', ['test/unit/**/*.test.ts', 'test/e2e/unit/**/*.test.ts'], {
        exclude: [...configDefaults.exclude, ...BUILT],
        pool: 'threads',
      }),
      project('bundle', ['test/bundle/**/*.test.ts', ...BUILT]),
      project('runtime', ['test/runtime/**/*.test.ts']),
      project('emulator', ['test/emulator/**/*.test.ts']),
      // Whole stacks (emulator + runtime + bundle) over loopback HTTP.
      project('integration', [
        'test/integration/**/*.test.ts',
        'test/reliability/**/*.test.ts',
        'test/perf/**/*.test.ts',
      ]),
      // Real Chromium over a stack or a scripted server.
      project('e2e', ['test/e2e/*.test.ts']),
    ],
  },
});
