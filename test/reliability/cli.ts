/**
 * `npm run reliability`: every fault-matrix scenario several times and the seeded soak on several
 * seeds, each job in a child process (two at a time, one per core), then one table.
 *
 *   npm run reliability -- [--runs 3] [--seeds 1,2,3,4,5] [--operations 1000] [--jobs 2]
 *   npm run reliability -- --soak-seed 7 --operations 1000 --trace   (replay one soak seed)
 *   npm run reliability -- --scenario "grant revoked"                (one scenario, by name)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from './scenarios';
import { runScenario, type ScenarioReport } from './support/run-scenario';
import { runSoak, type SoakReport } from './soak';

interface Options {
  runs: number;
  seeds: number[];
  operations: number;
  jobs: number;
  scenario: string | null;
  soakSeed: number | null;
  trace: boolean;
  /** Internal: run one job and print its report as JSON. */
  job: string | null;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    runs: 3,
    seeds: [1, 2, 3, 4, 5],
    operations: 1000,
    jobs: 2,
    scenario: null,
    soakSeed: null,
    trace: false,
    job: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const count = (): number => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1) throw new Error(`${flag} takes a whole number from 1`);
      return v;
    };
    if (flag === '--runs') options.runs = count();
    else if (flag === '--seeds')
      options.seeds = value()
        .split(',')
        .map((s) => Number(s.trim()));
    else if (flag === '--operations') options.operations = count();
    else if (flag === '--jobs') options.jobs = count();
    else if (flag === '--scenario') options.scenario = value();
    else if (flag === '--soak-seed') options.soakSeed = count();
    else if (flag === '--trace') options.trace = true;
    else if (flag === '--job') options.job = value();
    else throw new Error(`unknown option ${flag}; see the comment at the top of test/reliability/cli.ts`);
  }
  if (options.seeds.some((s) => !Number.isInteger(s) || s < 1))
    throw new Error('--seeds takes whole numbers from 1, comma-separated');
  return options;
}

/** A scenario's runs (one seed each) share a child process; each soak seed has its own. */
type Job = { kind: 'scenario'; index: number; seeds: number[] } | { kind: 'soak'; seed: number; operations: number };
type JobReport =
  | ({ kind: 'scenario' } & ScenarioReport)
  | ({ kind: 'soak' } & SoakReport)
  | { kind: 'crash'; job: Job; message: string };

async function runJob(job: Job, trace?: (line: string) => void): Promise<JobReport[]> {
  if (job.kind === 'soak') return [{ kind: 'soak', ...(await runSoak(job.seed, job.operations, undefined, trace)) }];
  const reports: JobReport[] = [];
  for (const seed of job.seeds) reports.push({ kind: 'scenario', ...(await runScenario(SCENARIOS[job.index]!, seed)) });
  return reports;
}

/** Runs one job in a child process (its own event loop and core), reading its JSON reports. */
function inChild(job: Job): Promise<JobReport[]> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--job', JSON.stringify(job)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', () => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as JobReport[]);
      } catch {
        const crash: JobReport = { kind: 'crash', job, message: (err || out).trim().split('\n').slice(-3).join(' ') };
        resolve(job.kind === 'scenario' ? job.seeds.map(() => crash) : [crash]);
      }
    });
  });
}

async function pool<T, R>(
  items: T[],
  width: number,
  work: (item: T) => Promise<R>,
  done: (result: R) => void,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
      done(results[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

const n = (v: number): string => v.toLocaleString('en-US');

function printTable(reports: JobReport[]): boolean {
  const rows: string[][] = [['scenario', 'runs', 'passed', 'rows compared', 'mismatches', 'tokens found']];
  let ok = true;
  for (const [index, scenario] of SCENARIOS.entries()) {
    const mine = reports.filter(
      (r): r is { kind: 'scenario' } & ScenarioReport => r.kind === 'scenario' && r.name === scenario.name,
    );
    const crashed = reports.filter(
      (r) => r.kind === 'crash' && r.job.kind === 'scenario' && r.job.index === index,
    ).length;
    if (mine.length + crashed === 0) continue;
    const passed = mine.filter((r) => r.passed).length;
    if (passed !== mine.length + crashed) ok = false;
    rows.push([
      scenario.name,
      n(mine.length + crashed),
      n(passed),
      n(mine.reduce((s, r) => s + r.rowsCompared, 0)),
      n(mine.reduce((s, r) => s + r.mismatches, 0)),
      n(mine.reduce((s, r) => s + r.tokensFound, 0)),
    ]);
  }
  if (rows.length > 1) {
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const row of rows)
      console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  }
  for (const r of reports) {
    if (r.kind === 'soak') {
      if (!r.passed) ok = false;
      const drawn = Object.entries(r.drawn)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      console.log(
        `\nsoak seed ${r.seed}: ${n(r.operations)} operations (${n(r.documentless)} scheduled runs fired without the document) — ${r.passed ? 'passed' : 'FAILED'}; rows compared ${n(r.rowsCompared)}, mismatches ${r.mismatches}, tokens found ${r.tokensFound}, connection ${r.connection}\n  drawn: ${drawn}`,
      );
    }
  }
  for (const r of reports) {
    if (r.kind === 'crash') {
      ok = false;
      console.log(`\ncrashed: ${JSON.stringify(r.job)}: ${r.message}`);
    } else if (!r.passed) {
      const replay =
        r.kind === 'soak'
          ? `npm run reliability -- --soak-seed ${r.seed} --operations ${r.operations} --trace`
          : `npm run reliability -- --scenario "${r.name}" --runs 1`;
      console.log(
        `\nfailed: ${r.kind === 'soak' ? `soak seed ${r.seed}` : `${r.name} (seed ${r.seed})`}\n  ${r.problems.join('\n  ')}\n  replay: ${replay}`,
      );
    }
  }
  return ok;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.job) {
    console.log(JSON.stringify(await runJob(JSON.parse(options.job) as Job)));
    return;
  }
  if (options.soakSeed !== null) {
    const reports = await runJob(
      { kind: 'soak', seed: options.soakSeed, operations: options.operations },
      options.trace ? (line) => console.log(line) : undefined,
    );
    process.exitCode = printTable(reports) ? 0 : 1;
    return;
  }
  const picked = SCENARIOS.map((s, index) => ({ s, index })).filter(
    ({ s }) => options.scenario === null || s.name.toLowerCase().includes(options.scenario.toLowerCase()),
  );
  if (picked.length === 0)
    throw new Error(`no scenario matches "${options.scenario}"; scenarios: ${SCENARIOS.map((s) => s.name).join('; ')}`);
  const jobs: Job[] = [];
  // Soak seeds first: they are the longest jobs, so the pool ends together.
  if (options.scenario === null)
    for (const seed of options.seeds) jobs.push({ kind: 'soak', seed, operations: options.operations });
  for (const { index } of picked)
    jobs.push({
      kind: 'scenario',
      index,
      seeds: Array.from({ length: options.runs }, (_, run) => 1000 * (run + 1) + index),
    });
  const started = Date.now();
  let finished = 0;
  const reports = (
    await pool(jobs, options.jobs, inChild, () => process.stderr.write(`\r${++finished}/${jobs.length} jobs`))
  ).flat();
  process.stderr.write(`\rall ${jobs.length} jobs in ${Math.round((Date.now() - started) / 1000)} s\n\n`);
  process.exitCode = printTable(reports) ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
});
