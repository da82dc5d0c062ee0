/**
 * How every reliability scenario ends: fault-free runs until the sync has caught up, then the five
 * data sheets against the emulator's truth, a scan of everything recorded for token values and the
 * client secret, and the connection as the sidebar shows it.
 */
import { issuedTokenValues, leakedTokens, sidebarConnection } from '../../../dev/harness/inspect';
import { compareWithTruth, sheetTable, type Comparison } from '../../integration/sync-support';
import type { ExecutionResult } from '../../../dev/gas-runtime/index';
import type { ReliabilityStack } from './reliability-stack';

type Progress = { done?: boolean; outcome?: string; message?: string; pausedUntil?: string | null };

export interface SyncEnd {
  executions: number;
  /** The last run's outcome: 'ok' when caught up, else what stopped it. */
  outcome: string;
  message: string;
}

/**
 * Runs `handler` as the schedule would until it reports done or a problem: a run cut by the time
 * limit or finding the lock busy is simply followed by the next; a pause for the API's allowance
 * moves both clocks past its end first.
 */
export async function runUntilSettled(
  stack: ReliabilityStack,
  handler = 'onScheduledSync',
  maxExecutions = 40,
): Promise<SyncEnd> {
  return settle(stack, handler, () => stack.runtime.run(handler, []), maxExecutions);
}

/** As runUntilSettled, each run fired by the schedule's trigger without its document (as Google may fire it). */
export async function triggerUntilSettled(
  stack: ReliabilityStack,
  triggerUid: string,
  maxExecutions = 40,
): Promise<SyncEnd> {
  return settle(
    stack,
    `trigger ${triggerUid}`,
    () => stack.runtime.fireTrigger(triggerUid, { document: false }),
    maxExecutions,
  );
}

async function settle(
  stack: ReliabilityStack,
  label: string,
  once: () => Promise<ExecutionResult>,
  maxExecutions: number,
): Promise<SyncEnd> {
  for (let n = 1; n <= maxExecutions; n++) {
    const result = await once();
    if (result.timedOut) continue;
    if (!result.ok) throw new Error(`${label} threw: ${result.error?.name}: ${result.error?.message}`);
    const progress = result.value as Progress;
    if (progress.outcome === 'busy') continue;
    if (progress.outcome === 'error') return { executions: n, outcome: 'error', message: String(progress.message) };
    if (progress.done) return { executions: n, outcome: 'ok', message: String(progress.message) };
    if (progress.pausedUntil) {
      const wait = Date.parse(progress.pausedUntil) - stack.runtime.clock.now();
      if (wait > 0) await stack.advanceClocks(Math.ceil(wait / 1000) * 1000 + 1000);
    }
  }
  throw new Error(`${label} did not settle in ${maxExecutions} executions`);
}

/** The sidebar's Sync now: startSync, then runSyncStep until done (bounded). */
export async function sidebarSync(stack: ReliabilityStack, maxSteps = 40): Promise<SyncEnd> {
  const start = await stack.runtime.run('startSync', []);
  if (!start.ok) throw new Error(`startSync threw: ${start.error?.message}`);
  for (let n = 1; n <= maxSteps; n++) {
    const step = await stack.runtime.run('runSyncStep', []);
    if (step.timedOut) continue;
    if (!step.ok) throw new Error(`runSyncStep threw: ${step.error?.message}`);
    const progress = step.value as Progress & { problem?: { userMessage: string } | null };
    if (progress.done)
      return {
        executions: n,
        outcome: progress.problem ? 'error' : 'ok',
        message: progress.problem?.userMessage ?? String(progress.message ?? ''),
      };
    if (progress.pausedUntil) return { executions: n, outcome: 'paused', message: String(progress.pausedUntil) };
  }
  throw new Error(`the sidebar sync did not finish in ${maxSteps} steps`);
}

export interface Verdict {
  rowsCompared: number;
  mismatches: number;
  /** Token values or the client secret found in anything recorded. */
  tokensFound: number;
  connection: string;
  /** What went wrong, for the failure message; empty when the scenario passed. */
  problems: string[];
}

const DATA_SHEETS: ReadonlyArray<[string, string]> = [
  ['Orders', 'id'],
  ['Line items', 'id'],
  ['Products', 'id'],
  ['Variants', 'id'],
  ['Daily P&L', 'date'],
];

function rowsWithKeys(stack: ReliabilityStack): number {
  let rows = 0;
  for (const [sheet, key] of DATA_SHEETS) {
    const [headers = [], ...body] = sheetTable(stack, sheet);
    const k = headers.indexOf(key);
    rows += body.filter((r) => String(r[k] ?? '') !== '').length;
  }
  return rows;
}

/** Every value found in what the runtime and the emulator recorded that is a token or the client secret. */
export async function tokensIn(stack: ReliabilityStack): Promise<string[]> {
  const secrets = [
    ...(await issuedTokenValues(stack.control)),
    stack.runtime.properties.script.get('MA_CLIENT_SECRET') ?? '',
  ];
  const ui = stack.runtime.ui;
  const recorded = [
    ...stack.outputs,
    JSON.stringify(stack.runtime.exportJson()),
    ...stack.runtime.totals.requests.map((r) => r.url),
    ...ui.sidebars.map((s) => s.html),
    ...ui.dialogs.map((d) => d.html),
    JSON.stringify(ui.alerts),
    JSON.stringify(ui.toasts),
    JSON.stringify(await stack.control('stats')),
    JSON.stringify(await stack.control('grants')),
  ].join('\n');
  return leakedTokens(
    recorded,
    secrets.filter((s) => s.length >= 16),
  );
}

/**
 * Clears faults, lets the clocks pass every rate-limit window, runs the sync and the
 * reconciliation pass (vanished orders) to the end, then judges.
 */
export async function finalVerdict(stack: ReliabilityStack, expected: { connection?: string } = {}): Promise<Verdict> {
  const problems: string[] = [];
  // A fault the sync never reached proved nothing: the scenario must provoke what it names.
  const unreached = ((await stack.control('faults')) as { pending: Array<Record<string, unknown>> }).pending;
  if (unreached.length > 0) problems.push(`injected faults never reached: ${JSON.stringify(unreached)}`);
  await stack.control('faults/clear', {});
  await stack.advanceClocks(61 * 60_000);
  const sync = await runUntilSettled(stack);
  if (sync.outcome !== 'ok') problems.push(`the final sync ended ${sync.outcome}: ${sync.message}`);
  if (stack.vanished.size > 0) {
    const pass = await runUntilSettled(stack, 'reconcileOrdersNow');
    if (pass.outcome !== 'ok') problems.push(`the reconciliation pass ended ${pass.outcome}: ${pass.message}`);
  }
  const comparison: Comparison = await compareWithTruth(stack, { expectGone: stack.vanished });
  const mismatches =
    comparison.mismatches.length +
    comparison.missing.length +
    comparison.unexpected.length +
    comparison.duplicates.length;
  if (mismatches > 0) {
    problems.push(
      `sheets differ from the truth: ${JSON.stringify({ ...comparison, mismatches: comparison.mismatches.slice(0, 3) }).slice(0, 800)}`,
    );
  }
  const connection = (await sidebarConnection(stack.runtime)).state;
  const wanted = expected.connection ?? 'connected';
  if (connection !== wanted) problems.push(`connection is ${connection}, expected ${wanted}`);
  const leaked = await tokensIn(stack);
  if (leaked.length > 0) problems.push(`${leaked.length} token value(s) or the client secret found in recorded output`);
  return { rowsCompared: rowsWithKeys(stack), mismatches, tokensFound: leaked.length, connection, problems };
}
