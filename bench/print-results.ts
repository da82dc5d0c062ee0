/** Prints the blocks the bench README carries (machine line and tables) from a results.json (default bench/results.json). */
import { readFileSync } from 'node:fs';
import type { Results } from './report';
import { RESULTS_JSON, readmeTables } from './readme-tables';

const file = process.argv[2] ?? RESULTS_JSON;
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
console.log(Object.values(readmeTables(results)).join('\n\n'));
