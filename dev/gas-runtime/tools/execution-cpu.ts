/**
 * CPU per execution of the local runtime (not a Google figure): runs getSidebarStamp on the built
 * bundle N times in a row and divides this process's CPU time (all its threads) by N.
 * Usage: npm run build && npx tsx dev/gas-runtime/tools/execution-cpu.ts [--runs 40] [--dist dist]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRuntime } from '../index.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '40' }, dist: { type: 'string', default: 'dist' } },
});
const runs = Number(values.runs);

async function main(): Promise<void> {
  const runtime = await createRuntime({ distDir: path.resolve(values.dist), modelledTimeOnly: true });
  await runtime.run('getSidebarStamp'); // bundles the worker code once, outside the measurement
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const result = await runtime.run('getSidebarStamp');
    if (!result.ok) throw new Error(`getSidebarStamp failed: ${result.error?.message}`);
  }
  const used = process.cpuUsage(before);
  await runtime.close();
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `${runs} executions of getSidebarStamp: ${(cpuMs / runs).toFixed(1)} ms CPU each (${cpuMs.toFixed(0)} ms)`,
  );
}

void main();
