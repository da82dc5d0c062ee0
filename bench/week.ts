/**
 * `npm run week [-- --days 7 --orders 2000 --dist DIR]`: the week on Google (week-on-google.ts) on a fresh
 * store, printing every quota's peak use as a percentage of its limit and what the week ran.
 */
import { parseArgs } from 'node:util';
import { startEmulator } from '../dev/emulator/index';
import { startStack } from '../dev/harness/index';
import { BENCH_NOW } from './stack';
import { runWeek } from './week-on-google';

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
        `${week.executions.formulas} formula cells (${week.executions.failedFormulas} failed); ` +
        `quota refusals: ${week.quotaRefusals}; the deleted spreadsheet's trigger ${week.goneTriggerRemoved ? 'removed itself' : 'still exists'}; ` +
        `sheets against the store's truth: ${week.truthDifferences} differences; wall ${Math.round((Date.now() - started) / 1000)} s`,
    );
    for (const problem of week.runProblems) console.log(`run problem: ${problem}`);
    const over = week.peaks.filter((p) => p.pct >= 50);
    process.exitCode =
      over.length || week.quotaRefusals || week.truthDifferences || week.executions.failedFormulas ? 1 : 0;
  } finally {
    await stack.close();
    await emulator.close();
  }
}

void main();
