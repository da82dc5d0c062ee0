/**
 * `npm run demo`: the scheduled sync of the built add-on (dist/) in the local runtime against the
 * emulator, run until caught up in as many executions as the budget needs; writes
 * out/workbook.xlsx and out/workbook.json and prints a summary. With --call NAME it runs one
 * custom-function execution instead and prints its result as JSON on the last line.
 */
import { parseDemoArgs, UsageError, type DemoArgs } from './args';
import { runDemo } from './run';

let parsed: DemoArgs;
try {
  parsed = parseDemoArgs(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    console.error(
      `demo: ${e.message}\nusage: npm run demo -- [--orders 5000] [--seed 1] [--api URL] [--state DIR] [--out DIR] [--reconcile] [--call NAME --args JSON] [--run NAME [--args JSON]]`,
    );
    process.exit(2);
  }
  throw e;
}
runDemo(parsed).catch((e: unknown) => {
  console.error(`demo: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
