/**
 * npm run bench: runs every bench/*.bench.ts in turn, each in its own process so that one
 * benchmark's heap does not colour the next one's memory figures. Benchmarks print figures; they
 * never pass or fail on time. The heap may grow to 12 GB: the 100k-order workloads keep three
 * workbooks of ~8 M cells (our sync's and each alternative's) in the runtime at once; the BigQuery
 * bench (bigquery.bench.ts) runs at BIGQUERY_BENCH_ORDERS orders, 1,000,000 when not set, and writes
 * its own section of results.json (each bench keeps the others' sections). At the end the
 * bench README's tables are rewritten from results.json, so the figures it shows are the last run's.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_JSON, writeBenchReadme } from './readme-tables';

const dir = __dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file} ==`);
  const result = spawnSync(process.execPath, ['--max-old-space-size=12288', '--import', 'tsx', path.join(dir, file)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
writeBenchReadme();
console.log(`\nbench/README.md tables rewritten from ${path.relative(process.cwd(), RESULTS_JSON)}`);
process.exit(failed ? 1 : 0);
