/** Prints the Markdown tables of a results.json (default bench/results.json), e.g. to update the README. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { alternativesTable, ratioTable, workloadTable, type Results } from './report';

const file = process.argv[2] ?? path.join(__dirname, 'results.json');
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
console.log(`${workloadTable(results)}\n\n${ratioTable(results)}\n\n${alternativesTable(results)}`);
