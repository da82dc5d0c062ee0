import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Suites under test/unit that read the built bundle (dist/, from `npm run build`), build it, or run
 * the project's tools as processes: the deploy command's suite copies the project and builds it
 * three times; the import graph's runs the graph script and lints probe files. The unit project
 * keeps what answers in seconds.
 */
const BUILT = [
  'test/unit/build-manifest.test.ts',
  'test/unit/manifest-scopes.test.ts',
  'test/unit/deploy-command.test.ts',
  'test/unit/deploy-readiness.test.ts',
  'test/unit/import-graph.test.ts',
];

/*
 * The order files start in: the longest suites first, across projects, so that no long suite starts last and runs alone
 * on one core while the other idles (vitest's own order groups files by project name, then by
 * cached duration, or by file size on a clean clone: a 1.5 kB table-driven suite of 90 s ran last).
 */
/**
 * Suites that took 20 s or more in a clean-clone CI run, longest first: the order on a machine with
 * no vitest cache. Where the cache holds a duration, the measured one decides.
 */
const LONG_SUITES = [
  'test/reliability/scenarios.test.ts',
  'test/bundle/typecheck.test.ts',
  'test/unit/deploy-command.test.ts',
  'test/e2e/sidebar-ui.test.ts',
  'test/reliability/attack-other-editor.test.ts',
  'test/integration/functions-recalc.test.ts',
  'test/e2e/playground-sheets.test.ts',
  'test/e2e/sidebar-columns.test.ts',
  'test/integration/sync-quotas.test.ts',
  'test/perf/formula-cells.test.ts',
  'test/integration/trust-reconcile.test.ts',
  'test/integration/sync-demo-rerun.test.ts',
  'test/perf/hourly-budget.test.ts',
  'test/integration/formulas-killed-sync.test.ts',
  'test/integration/connect-lifecycle.test.ts',
  'test/e2e/sidebar-story.test.ts',
  'test/integration/sync-truth.test.ts',
  'test/e2e/playground-first-week.test.ts',
  'test/integration/sync-killpoints.test.ts',
  'test/e2e/finance-workspace.test.ts',
  'test/integration/sync-hostile-data.test.ts',
  'test/integration/controller-window.test.ts',
  'test/e2e/sidebar-checks.test.ts',
  'test/integration/sync-schedule.test.ts',
  'test/reliability/soak.test.ts',
];

/** Projects whose suites start a stack or a browser: after the long list, before the rest. */
const STACK_PROJECTS = ['e2e', 'integration'];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification): [number, number] => {
      const relative = path.relative(root, file.moduleId).split(path.sep).join('/');
      const key = `${file.project.name}:${relative}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      if (cached) return [0, -cached.duration];
      const listed = LONG_SUITES.indexOf(relative);
      if (listed >= 0) return [1, listed];
      if (STACK_PROJECTS.includes(file.project.name)) return [2, -(this.ctx.cache.getFileStats(key)?.size ?? 0)];
      return [3, 0];
    };
    const ranked = files.map((file) => ({ file, rank: rank(file) }));
    ranked.sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1]);
    return ranked.map(({ file }) => file);
  }
}

/**
 * Files of a project share their worker's loaded modules (no fresh module graph per file): each
 * suite builds its own stack, emulator and runtime, and no suite mocks modules or leaves globals
 * changed, while re-importing the harness for each of 300 files cost a third of the suite's CPU
 * (the runtime project: 53 s of CPU isolated, 24 s shared).
 */
const SHARED_MODULES = { isolate: false } as const;

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
    sequence: { sequencer: LongFirstSequencer },
    // `npx vitest run --project unit` runs one of these; `vitest run` runs them all in one pool.
    projects: [
      // Modules and fakes: no stack, no built bundle. Worker threads (each file still isolated) start
      // cheaper than forked processes; the stack-starting projects keep a process per file.
      project('unit', ['test/unit/**/*.test.ts', 'test/e2e/unit/**/*.test.ts'], {
        exclude: [...configDefaults.exclude, ...BUILT],
        pool: 'threads',
        ...SHARED_MODULES,
      }),
      project('bundle', ['test/bundle/**/*.test.ts', ...BUILT], SHARED_MODULES),
      project('runtime', ['test/runtime/**/*.test.ts'], SHARED_MODULES),
      project('emulator', ['test/emulator/**/*.test.ts'], SHARED_MODULES),
      // Whole stacks (emulator + runtime + bundle) over loopback HTTP.
      project(
        'integration',
        ['test/integration/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/perf/**/*.test.ts'],
        SHARED_MODULES,
      ),
      // Real Chromium over a stack or a scripted server. Each file launches and closes its own
      // browser; sharing the worker's modules spares each file re-importing playwright, the
      // playground and the harness (about a fifth of an e2e file's CPU).
      project('e2e', ['test/e2e/*.test.ts'], SHARED_MODULES),
    ],
  },
});
