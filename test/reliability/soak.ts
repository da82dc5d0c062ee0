/**
 * The seeded soak: a merchant's months compressed into random operations — order
 * changes of every kind, new orders, vanishings, API faults, killed executions, clock jumps,
 * scheduled runs (half of them fired by the trigger without the document), sidebar syncs,
 * formula recalculations, revoke, store switch, client disabled, reconnect — drawn from one seed, then the final verdict. Same seed, same operations: a failing
 * seed replays with `npm run reliability -- --soak-seed N --operations M`.
 */
import { TRIGGER_QUOTA_MESSAGE } from '../../dev/gas-runtime/index';
import { sidebarConnection } from '../../dev/harness/inspect';
import { seededRandom, type Random } from './support/random';
import { startReliabilityStack, type ReliabilityStack } from './support/reliability-stack';
import { finalVerdict, runUntilSettled, sidebarSync, type Verdict } from './support/verdict';

export interface SoakReport extends Verdict {
  seed: number;
  operations: number;
  /** How often each operation was drawn. */
  drawn: Record<string, number>;
  /** Of the scheduled and killed runs, how many were fired by the trigger without the document. */
  documentless: number;
  passed: boolean;
}

type Json = Record<string, unknown>;

interface SoakState {
  stack: ReliabilityStack;
  random: Random;
  /** Order ids currently in the store (refreshed from the truth now and then). */
  orderIds: string[];
  clientDisabled: boolean;
  /**
   * Whether a scheduled run is fired by its trigger without the document: its own stream, so a
   * seed draws the same operations as before documentless runs were added.
   */
  howFired: Random;
  /** Scheduled runs (killed or not) fired by the trigger without the document. */
  documentless: number;
  /** Broken invariants seen on the way. */
  problems: string[];
}

const CHANGE_KINDS = [
  'cost_correction',
  'late_fulfillment',
  'ad_spend',
  'attribution',
  'refund',
  'partial_refund',
  'cancel',
];
const TOKEN_PATH = '/oauth2/token';

async function refreshOrderIds(s: SoakState): Promise<void> {
  s.orderIds = ((await s.stack.truth('orders')) as { data: Json[] }).data.map((o) => String(o.id));
}

/** A lever that does not apply now (a refund of a cancelled order, a revoke with no live connection) is refused with 409. */
async function tolerate409(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!/answered 409/.test(String(error))) throw error;
  }
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Each operation with its weight: how often a merchant's months hold it. */
const OPERATIONS: ReadonlyArray<readonly [string, number, (s: SoakState) => Promise<void>]> = [
  [
    'order change',
    22,
    async (s) => {
      if (s.orderIds.length === 0) return;
      await tolerate409(
        s.stack.control(`orders/${s.random.pick(s.orderIds)}/change`, { kind: s.random.pick(CHANGE_KINDS) }),
      );
    },
  ],
  [
    'new orders',
    8,
    async (s) => {
      await s.stack.control('orders', { count: s.random.int(1, 30) });
      await refreshOrderIds(s);
    },
  ],
  [
    'vanish',
    2,
    async (s) => {
      if (s.orderIds.length < 50) return;
      const id = s.random.pick(s.orderIds);
      await s.stack.control(`orders/${id}/vanish`, {});
      s.stack.vanished.add(id);
      s.orderIds = s.orderIds.filter((o) => o !== id);
    },
  ],
  [
    'API fault',
    6,
    async (s) => {
      const r = s.random;
      const kind = r.int(0, 5);
      const after = r.int(0, 3);
      const path = r.pick(['/api/v1/orders', '/api/v1/products', '/api/v1/profitability', '/api/v1/account']);
      if (kind === 0)
        await s.stack.control('faults', { status: r.pick([500, 502]), count: r.int(1, 3), path_prefix: path, after });
      else if (kind === 1)
        await s.stack.control('faults', { status: 502, body: 'html', count: 1, path_prefix: path, after });
      else if (kind === 2) await s.stack.control('faults', { body: 'truncated', count: 1, path_prefix: path, after });
      else if (kind === 3)
        await s.stack.control('faults', {
          status: 429,
          reason: r.pick(['burst', 'hour', 'day', 'concurrency', 'client_global']),
          retry_after: r.int(1, 600),
          count: 1,
          path_prefix: path,
          after,
        });
      else
        await s.stack.control('faults', {
          body: r.pick(['invalid_cursor', 'cursor_filter_mismatch']),
          count: 1,
          path_prefix: '/api/v1/orders',
          after,
        });
    },
  ],
  [
    'killed execution',
    6,
    async (s) => {
      await scheduledRun(s, s.random.int(1, 150));
    },
  ],
  [
    'clock jump',
    8,
    async (s) => {
      await s.stack.advanceClocks(s.random.int(1, 180) * 60_000);
    },
  ],
  [
    'scheduled run',
    16,
    async (s) => {
      await scheduledRun(s);
    },
  ],
  [
    'sidebar sync',
    5,
    async (s) => {
      try {
        await sidebarSync(s.stack, 10);
      } catch (error) {
        s.problems.push(String(error));
      }
    },
  ],
  [
    'formula recalculation',
    8,
    async (s) => {
      const end = s.stack.runtime.clock.now() - s.random.int(0, 200) * 86_400_000;
      const start = end - s.random.int(0, 90) * 86_400_000;
      const name = s.random.pick(['PROFIT_SUMMARY', 'PROFIT_DAILY']);
      const r = await s.stack.runtime.run(name, [isoDay(start), isoDay(end)], { authMode: 'CUSTOM_FUNCTION' });
      // Custom functions never refresh: a refresh there loses the rotated token (ARCHITECTURE.md).
      if (r.counts.requests.some((q) => q.url.includes(TOKEN_PATH)))
        s.problems.push(`${name} asked the token endpoint`);
    },
  ],
  // Both need a live connection: drawn again before a reconnect, the emulator answers 409 no_connection.
  [
    'revoke',
    1,
    async (s) => {
      await tolerate409(s.stack.control('grants/revoke', { reason: 'disconnected' }));
    },
  ],
  [
    'switch store',
    1,
    async (s) => {
      await tolerate409(s.stack.control('grants/switch-store', {}));
    },
  ],
  [
    'client disabled / enabled',
    2,
    async (s) => {
      s.clientDisabled = !s.clientDisabled;
      await s.stack.control('client/disable', { disabled: s.clientDisabled });
    },
  ],
  [
    'reconnect if lost',
    4,
    async (s) => {
      await reconnectIfLost(s);
    },
  ],
];

const TOTAL_WEIGHT = OPERATIONS.reduce((sum, [, weight]) => sum + weight, 0);

function draw(random: Random): (typeof OPERATIONS)[number] {
  let at = random() * TOTAL_WEIGHT;
  for (const operation of OPERATIONS) {
    at -= operation[1];
    if (at < 0) return operation;
  }
  return OPERATIONS[OPERATIONS.length - 1]!;
}

/**
 * A scheduled run (cut at that service call if given): called with the document, or, half the time
 * while the schedule's trigger exists (a lost connection removes it), fired by that trigger without
 * the document, as Google may fire an add-on's clock trigger (apps-script-facts.md).
 */
async function scheduledRun(s: SoakState, killAtServiceCall?: number): Promise<void> {
  const trigger = s.stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync');
  const documentless = s.howFired() < 0.5 && trigger !== undefined;
  const r = documentless
    ? await s.stack.runtime.fireTrigger(trigger.uid, { document: false, killAtServiceCall })
    : await s.stack.runtime.run('onScheduledSync', [], killAtServiceCall === undefined ? {} : { killAtServiceCall });
  if (documentless) s.documentless++;
  // Past the user's daily trigger runtime Google does not run the trigger: a skipped run, not a fault.
  if (!r.ok && !r.timedOut && r.error?.message !== TRIGGER_QUOTA_MESSAGE)
    s.problems.push(`a scheduled run${documentless ? ' fired without the document' : ''} threw: ${r.error?.message}`);
}

async function reconnectIfLost(s: SoakState): Promise<void> {
  if (s.clientDisabled) return;
  const state = (await sidebarConnection(s.stack.runtime)).state;
  if (state === 'revoked' || state === 'store_changed' || state === 'invalid_claims' || state === 'lapsed') {
    const page = await s.stack.connect({ storeId: s.stack.storeId });
    if (page.outcome !== 'connected')
      s.problems.push(`reconnecting after ${state} ended ${page.outcome ?? page.status}`);
    // The sidebar reloads its state once the connect dialog closes: that restores a paused schedule.
    await sidebarConnection(s.stack.runtime);
  }
}

/**
 * The trace's view after an operation: the emulator's connections and whether the schedule's
 * trigger exists. Read without running the add-on (getSidebarState refreshes tokens and restores
 * schedules), so a traced replay runs exactly the operations the failing run did.
 */
async function traceState(s: SoakState): Promise<string> {
  const { connections } = (await s.stack.control('grants')) as {
    connections: Array<{ state: string; store_id: string }>;
  };
  const grants =
    connections.map((c) => `${c.state}${c.store_id === s.stack.storeId ? '' : ` (store ${c.store_id})`}`).join(', ') ||
    'no grant';
  const trigger = s.stack.runtime.triggers.some((t) => t.handlerFunction === 'onScheduledSync');
  return `${grants}; schedule trigger ${trigger ? 'on' : 'off'}`;
}

/** `trace` receives one line per operation (what was drawn, and the connection after it) to replay a failing seed. */
export async function runSoak(
  seed: number,
  operations: number,
  orders = 200,
  trace?: (line: string) => void,
): Promise<SoakReport> {
  const stack = await startReliabilityStack({ orders, seed });
  try {
    const s: SoakState = {
      stack,
      random: seededRandom(seed),
      howFired: seededRandom(seed + 0x5eed),
      documentless: 0,
      orderIds: [],
      clientDisabled: false,
      problems: [],
    };
    await refreshOrderIds(s);
    await runUntilSettled(stack);
    const schedule = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
    if (!schedule.ok) s.problems.push(`setSchedule threw: ${schedule.error?.message}`);
    const drawn: Record<string, number> = {};
    for (let n = 0; n < operations; n++) {
      const [name, , operate] = draw(s.random);
      drawn[name] = (drawn[name] ?? 0) + 1;
      const problemsBefore = s.problems.length;
      await operate(s);
      if (trace)
        trace(
          `${n + 1} ${name}: ${await traceState(s)}${s.problems.length > problemsBefore ? ` — ${s.problems.at(-1)}` : ''}`,
        );
    }
    // The end of the story: the service recovers, the merchant reconnects where needed.
    if (s.clientDisabled) await stack.control('client/disable', { disabled: false });
    s.clientDisabled = false;
    await stack.control('late-writers', { max_backdate_seconds: 0 });
    await stack.advanceClocks(2 * 60_000);
    await reconnectIfLost(s);
    // Faults drawn late may never be reached: that is the soak's chance, not a failure.
    await stack.control('faults/clear', {});
    const verdict = await finalVerdict(stack);
    const problems = [...s.problems, ...verdict.problems];
    return {
      seed,
      operations,
      drawn,
      documentless: s.documentless,
      ...verdict,
      problems,
      passed: problems.length === 0,
    };
  } finally {
    await stack.close();
  }
}
