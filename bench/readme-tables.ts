/**
 * The bench README carries the latest run's tables between marker comments, rewritten from a
 * results.json by this script (and by `npm run bench` at its end), never by hand: a figure there can
 * then only be one the run produced. The prose around the markers is left as it is.
 * Run: npx tsx bench/readme-tables.ts [results.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bigQueryTable } from './bigquery-report';
import { alternativesTable, ratioTable, workloadTable, type Results } from './report';

export const BENCH_README = path.join(__dirname, 'README.md');
export const RESULTS_JSON = path.join(__dirname, 'results.json');

const n = (v: unknown): string => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v));

/** The run's machine and wall time, as results.json records them. */
export function machineLine(results: Results): string {
  const m = results.machine;
  const wall = (m.wall_seconds ?? {}) as Record<string, number>;
  const total = Object.values(wall).reduce((sum, s) => sum + s, 0);
  const perStore = Object.entries(wall)
    .map(([size, s]) => `${size} ${n(s)} s`)
    .join(', ');
  return (
    `Machine: ${n(m.cpus)} cores (${n(m.cpu_model)}), Node ${n(m.node)}, ${n(m.platform)}; seed ${n(m.seed)}, ` +
    `emulator data generated at ${n(m.emulator_now)}; run started ${n(m.started_at)}; OAuth2 library ` +
    `\`${n(m.oauth2_library)}\`; wall time by store size: ${perStore} (${n(total)} s in all).`
  );
}

/** Every generated block of the bench README, by its marker's name. */
export function readmeTables(results: Results): Record<string, string> {
  return {
    machine: machineLine(results),
    workloads: workloadTable(results),
    'lower-bound': ratioTable(results),
    alternatives: alternativesTable(results),
    bigquery: bigQueryTable(results.bigquery),
  };
}

const open = (name: string): string => `<!-- results.json:${name} -->`;
const close = (name: string): string => `<!-- /results.json:${name} -->`;

/** `readme` with each block between its markers replaced by what `results` gives. */
export function withTables(readme: string, results: Results): string {
  let text = readme;
  for (const [name, block] of Object.entries(readmeTables(results))) {
    const start = text.indexOf(open(name));
    const end = text.indexOf(close(name));
    if (start < 0 || end < start) {
      throw new Error(`the bench README has no ${open(name)} … ${close(name)} markers around its ${name} block`);
    }
    text = `${text.slice(0, start + open(name).length)}\n\n${block}\n\n${text.slice(end)}`;
  }
  return text;
}

export function writeBenchReadme(resultsFile = RESULTS_JSON, readmeFile = BENCH_README): void {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  writeFileSync(readmeFile, withTables(readFileSync(readmeFile, 'utf8'), results));
}

if (require.main === module) {
  writeBenchReadme(process.argv[2] ?? RESULTS_JSON);
  console.log(`bench README tables rewritten from ${process.argv[2] ?? RESULTS_JSON}`);
}
