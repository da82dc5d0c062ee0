/**
 * The bench README's figures are the last run's: every block between its markers equals what
 * results.json gives, so a table edited by hand, or left behind by a new run, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_README, RESULTS_JSON, withTables } from '../../bench/readme-tables';
import type { Results } from '../../bench/report';

const readme = readFileSync(BENCH_README, 'utf8');
const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as Results;

describe('bench README', () => {
  it('carries exactly the tables and machine line bench/results.json gives', () => {
    expect(readme).toBe(withTables(readme, results));
  });

  it('names every workload of results.json in its tables, with its cells written', () => {
    for (const [name, w] of Object.entries(results.workloads)) {
      expect(readme).toContain(`| ${name} | ${w.figures.executions} (`);
      expect(readme).toContain(w.figures.cells_written.toLocaleString('en-US'));
    }
  });

  it('refuses a README whose markers are gone, rather than leaving its tables as they are', () => {
    const unmarked = readme.replaceAll('<!-- /results.json:workloads -->', '');
    expect(() => withTables(unmarked, results)).toThrow(/results\.json:workloads/);
  });
});
