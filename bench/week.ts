/**
 * `npm run week [-- --days 7 --orders 2000 --dist DIR]`: the week on Google (week-on-google.ts) on a fresh
 * store, printing every quota's peak use as a percentage of its limit and what the week ran.
 */
import { parseArgs } from 'node:util';
import { startEmulator } from '../dev/emulator/index';
import { startStack } from '../dev/harness/index';
import { BENCH_NOW } from './stack';
import { runWeek } from './week-on-google';
import { SIMULTANEOUS_EXECUTIONS_PER_USER } from '../dev/gas-runtime/index';
import { RECALC_CELLS_AT_ONCE } from './drivers';

/** What the same report as 200 custom-function cells would hold, said beside the measured peak. */
const PER_CELL_NOTE = (limit: number): string =>
  `12 range formulas feed 188 native cells, so at most 12 custom-function executions run at once. ` +
  `The same 200 figures as one custom-function cell each (bench formulas_200_cells) would hold ${RECALC_CELLS_AT_ONCE} at once ` +
  `under the bench's ${RECALC_CELLS_AT_ONCE}-at-a-time assumption (${Math.round((1_000 * RECALC_CELLS_AT_ONCE) / limit) / 10} % of ${limit}); ` +
  `Google does not document how many cells Sheets starts at once, and all 200 at once would pass ${limit}.`;

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '7' },
    orders: { type: 'string', default: '2000' },
    /** The built add-on to run (default dist/), e.g. a copy kept while dist/ is rebuilt. */
    dist: { type: 'string' },
  },
});

async function main(): Promise<void> {
  const emulator = await startEmulator({
    orders: Number(values.orders),
    seed: 1,
    now: BENCH_NOW,
    clockFollowsRealTime: false,
  });
  const stack = await startStack({
    apiUrl: emulator.url,
    modelledTimeOnly: true,
    ...(values.dist ? { distDir: values.dist } : {}),
  });
  try {
    await stack.connect();
    const started = Date.now();
    const week = await runWeek(stack, {
      days: Number(values.days),
      ordersPerHour: 4,
      changeEveryHours: 3,
      log: (line) => console.log(line),
    });
    console.log(`\n| quota | limit | peak | use |\n| --- | --- | --- | --- |`);
    for (const p of week.peaks)
      console.log(`| ${p.quota} | ${p.limit} | ${p.peak.toLocaleString('en-US')} | ${p.pct} % |`);
    console.log(
      `\nexecutions: ${week.executions.trigger} by triggers, ${week.executions.sidebar} by sidebars, ` +
        `${week.executions.reportCells} report cells from ${week.executions.formulas} custom-function executions (${week.executions.failedFormulas} failed); ` +
        `quota refusals: ${week.quotaRefusals}; the deleted spreadsheet's trigger ${week.goneTriggerRemoved ? 'removed itself' : 'still exists'}; ` +
        `sheets against the store's truth: ${week.truthDifferences} differences; wall ${Math.round((Date.now() - started) / 1000)} s`,
    );
    for (const problem of week.runProblems) console.log(`run problem: ${problem}`);
    console.log(`the report: ${PER_CELL_NOTE(SIMULTANEOUS_EXECUTIONS_PER_USER)}`);
    const over = week.peaks.filter((p) => p.pct >= 50);
    process.exitCode =
      over.length || week.quotaRefusals || week.truthDifferences || week.executions.failedFormulas ? 1 : 0;
  } finally {
    await stack.close();
    await emulator.close();
  }
}

void main();
