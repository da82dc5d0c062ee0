/**
 * The fault matrix: each scenario provokes one kind of trouble through the emulator's
 * fault injection and controls, the runtime's clock and kill points, then ends with
 * `finalVerdict`: sheets equal to the truth, no token anywhere, the connection in the right state.
 */
import { sidebarConnection } from '../../dev/harness/inspect';
import type { Random } from './support/random';
import type { ReliabilityStack } from './support/reliability-stack';
import { compareWithTruth } from '../integration/sync-support';
import { runUntilSettled, sidebarSync, triggerUntilSettled } from './support/verdict';

export interface Scenario {
  name: string;
  /** Orders in the emulator's main store. */
  orders: number;
  /** Provokes the trouble; returns what it saw go wrong on the way (empty when all was as the spec says). */
  run(stack: ReliabilityStack, random: Random): Promise<string[]>;
  /** The connection state the sidebar must show at the end (default connected). */
  connection?: string;
}

type Json = Record<string, unknown>;

const ORDERS_PATH = '/api/v1/orders';

async function killedRun(stack: ReliabilityStack, atServiceCall: number): Promise<void> {
  const r = await stack.runtime.run('onScheduledSync', [], { killAtServiceCall: atServiceCall });
  if (!r.ok && !r.timedOut) throw new Error(`onScheduledSync threw: ${r.error?.message}`);
}

/** Runs the sync as the schedule would; a run that ends on a problem is reported, since the trouble was meant to be survived. */
async function survive(stack: ReliabilityStack, seen: string[]): Promise<void> {
  const end = await runUntilSettled(stack);
  if (end.outcome !== 'ok') seen.push(`the sync ended ${end.outcome}: ${end.message}`);
}

async function expectState(stack: ReliabilityStack, state: string, seen: string[]): Promise<void> {
  const now = (await sidebarConnection(stack.runtime)).state;
  if (now !== state) seen.push(`the sidebar showed ${now} where the spec wants ${state}`);
}

async function someOrderIds(stack: ReliabilityStack, random: Random, count: number): Promise<string[]> {
  const orders = ((await stack.truth('orders')) as { data: Json[] }).data;
  const ids = new Set<string>();
  while (ids.size < Math.min(count, orders.length)) ids.add(String(random.pick(orders).id));
  return [...ids];
}

/**
 * Bursts on pages of the first backfill, each burst on a request of its own. Faults are served one
 * after the other, each letting `after` matching requests through first: the first burst lands on
 * page 1 or 2, every later one lets one request through (the retried page) first. Laid with
 * `after: 0`, bursts stacked on one request (seed 2000: 2+2+1+2 failures in a row), an outage
 * past the 5 attempts the transport gives a request, not a burst. With FAULTED_STORE's six pages,
 * four bursts are always reached (a fault nobody reached fails the verdict).
 */
async function burstsOnRandomPages(stack: ReliabilityStack, random: Random, bursts: Json[]): Promise<void> {
  for (const [i, fault] of bursts.entries()) {
    await stack.control('faults', {
      path_prefix: ORDERS_PATH,
      after: i === 0 ? random.int(0, 1) : 1,
      count: random.int(1, 2),
      ...fault,
    });
  }
}

/** Orders in the faulted stores: six pages of 250. */
const FAULTED_STORE = 1_400;

/** The runtime's default user, whose Sheets API quota the scenarios use up. */
const SHEETS_USER = 'user@example.com';

const RATE_LIMIT_REASONS = ['burst', 'hour', 'day', 'concurrency', 'client_global'] as const;

export const SCENARIOS: Scenario[] = [
  {
    name: '500/502 bursts on random pages',
    orders: FAULTED_STORE,
    async run(stack, random) {
      await burstsOnRandomPages(stack, random, [{ status: 500 }, { status: 500 }, { status: 502 }, { status: 502 }]);
      const seen: string[] = [];
      await survive(stack, seen);
      return seen;
    },
  },
  {
    name: 'HTML error pages and truncated bodies on random pages',
    orders: FAULTED_STORE,
    async run(stack, random) {
      await burstsOnRandomPages(stack, random, [
        { status: 502, body: 'html' },
        { status: 502, body: 'html' },
        { body: 'truncated' },
        { body: 'truncated' },
      ]);
      const seen: string[] = [];
      await survive(stack, seen);
      return seen;
    },
  },
  ...RATE_LIMIT_REASONS.map((reason): Scenario => ({
    name: `429 ${reason} with Retry-After`,
    orders: FAULTED_STORE,
    async run(stack, random) {
      const retryAfter = reason === 'day' ? 4 * 3600 : reason === 'hour' ? 1800 : random.int(1, 20);
      await stack.control('faults', {
        status: 429,
        reason,
        retry_after: retryAfter,
        path_prefix: ORDERS_PATH,
        after: random.int(0, 3),
        count: 1,
      });
      const seen: string[] = [];
      await survive(stack, seen);
      return seen;
    },
  })),
  {
    name: 'access token expiring mid-sync',
    orders: 700,
    async run(stack, random) {
      await killedRun(stack, random.int(40, 70));
      await stack.advanceClocks(65 * 60_000);
      const seen: string[] = [];
      await survive(stack, seen);
      return seen;
    },
  },
  {
    name: 'grant revoked mid-sync',
    orders: 700,
    async run(stack, random) {
      const seen: string[] = [];
      await killedRun(stack, random.int(40, 70));
      await stack.control('grants/revoke', { reason: 'disconnected' });
      const stopped = await runUntilSettled(stack);
      if (stopped.outcome !== 'error') seen.push(`a run after the revoke ended ${stopped.outcome}`);
      await expectState(stack, 'revoked', seen);
      await stack.connect({ storeId: stack.storeId });
      return seen;
    },
  },
  {
    name: 'store switched mid-sync',
    orders: 700,
    async run(stack, random) {
      const seen: string[] = [];
      await killedRun(stack, random.int(40, 70));
      await stack.control('grants/switch-store', {});
      const stopped = await runUntilSettled(stack);
      if (stopped.outcome !== 'error') seen.push(`a run after the switch ended ${stopped.outcome}`);
      await expectState(stack, 'store_changed', seen);
      await stack.connect({ storeId: stack.storeId });
      return seen;
    },
  },
  {
    name: 'client disabled, then re-enabled',
    orders: 700,
    async run(stack, random) {
      const seen: string[] = [];
      await killedRun(stack, random.int(40, 70));
      await stack.control('client/disable', { disabled: true });
      const stopped = await runUntilSettled(stack);
      if (stopped.outcome !== 'error') seen.push(`a run with the client disabled ended ${stopped.outcome}`);
      await expectState(stack, 'operator_problem', seen);
      await stack.control('client/disable', { disabled: false });
      await stack.advanceClocks(2 * 60_000);
      return seen;
    },
  },
  {
    name: 'cursor refused: tampered (INVALID_CURSOR) and filter mismatch',
    orders: FAULTED_STORE,
    async run(stack, random) {
      // Cursor faults match only requests that send a cursor: pages 2..6 of the backfill.
      await stack.control('faults', {
        body: 'invalid_cursor',
        path_prefix: ORDERS_PATH,
        after: random.int(0, 1),
        count: 1,
      });
      await stack.control('faults', {
        body: 'cursor_filter_mismatch',
        path_prefix: ORDERS_PATH,
        after: random.int(0, 1),
        count: 1,
      });
      const seen: string[] = [];
      await survive(stack, seen);
      return seen;
    },
  },
  {
    name: 'late writers (change markers up to 240 s in the past)',
    orders: 500,
    async run(stack, random) {
      const seen: string[] = [];
      await survive(stack, seen);
      await stack.control('late-writers', { max_backdate_seconds: 240 });
      const kinds = [
        'cost_correction',
        'late_fulfillment',
        'refund',
        'partial_refund',
        'cancel',
        'attribution',
        'ad_spend',
      ];
      for (let round = 0; round < 3; round++) {
        for (const id of await someOrderIds(stack, random, 12)) await changeOrder(stack, id, random.pick(kinds));
        await stack.control('orders', { count: random.int(5, 40) });
        await stack.advanceClocks(random.int(30, 200) * 1000);
        await survive(stack, seen);
      }
      return seen;
    },
  },
  {
    name: 'vanished orders',
    orders: 600,
    async run(stack, random) {
      const seen: string[] = [];
      await survive(stack, seen);
      for (const id of await someOrderIds(stack, random, 5)) {
        await stack.control(`orders/${id}/vanish`, {});
        stack.vanished.add(id);
      }
      return seen;
    },
  },
  {
    name: 'executions ended by the time limit at seeded random points',
    orders: 600,
    async run(stack, random) {
      const seen: string[] = [];
      for (let k = 0; k < 4; k++) await killedRun(stack, random.int(1, 160));
      await survive(stack, seen);
      for (const id of await someOrderIds(stack, random, 10)) await changeOrder(stack, id, 'refund');
      await stack.control('orders', { count: 300 });
      for (let k = 0; k < 4; k++) await killedRun(stack, random.int(1, 120));
      return seen;
    },
  },
  {
    name: 'two scheduled runs at once',
    orders: 700,
    async run(stack) {
      const seen: string[] = [];
      const [a, b] = await Promise.all([
        stack.runtime.run('onScheduledSync', []),
        stack.runtime.run('onScheduledSync', []),
      ]);
      const outcomes = [a, b].map((r) => (r.value as { outcome?: string } | undefined)?.outcome);
      if (!outcomes.includes('busy'))
        seen.push(`two runs at once both worked (${outcomes.join(', ')}): the lock did not hold`);
      return seen;
    },
  },
  {
    name: 'a sidebar sync and a trigger at once',
    orders: 700,
    async run(stack) {
      const seen: string[] = [];
      const [sidebar, trigger] = await Promise.all([sidebarSync(stack), runUntilSettled(stack)]);
      for (const end of [sidebar, trigger])
        if (end.outcome !== 'ok') seen.push(`a sync ended ${end.outcome}: ${end.message}`);
      return seen;
    },
  },
  {
    // Google may fire an add-on's clock trigger without its document (apps-script-facts.md): the run
    // finds its spreadsheet through its owner's record and keeps its checkpoint in their copy.
    name: 'a trigger fired without its document',
    orders: FAULTED_STORE,
    async run(stack, random) {
      const seen: string[] = [];
      const set = await stack.runtime.run('setSchedule', [{ mode: 'hourly' }]);
      if (!set.ok) return [`setSchedule threw: ${set.error?.message}`];
      const uid = stack.runtime.triggers.find((t) => t.handlerFunction === 'onScheduledSync')?.uid;
      if (!uid) return ['setSchedule created no trigger'];
      await burstsOnRandomPages(stack, random, [
        { status: 502 },
        { body: 'truncated' },
        { status: 429, reason: 'burst', retry_after: random.int(1, 20) },
      ]);
      const cut = await stack.runtime.fireTrigger(uid, { document: false, killAtServiceCall: random.int(10, 60) });
      if (!cut.ok && !cut.timedOut) seen.push(`a documentless trigger run threw: ${cut.error?.message}`);
      await documentlessCatchUp(stack, uid, 'the backfill', seen);
      for (const id of await someOrderIds(stack, random, 10))
        await changeOrder(stack, id, random.pick(['refund', 'cost_correction', 'late_fulfillment']));
      await stack.control('orders', { count: random.int(20, 120) });
      await stack.advanceClocks(random.int(5, 60) * 60_000);
      await documentlessCatchUp(stack, uid, 'an hourly run', seen);
      return seen;
    },
  },
  {
    // Another execution of the same Google user (another spreadsheet's sync, another add-on) used
    // the minute's 60 Sheets API writes (developers.google.com/workspace/sheets/api/limits).
    name: 'Sheets write-quota refusals',
    orders: FAULTED_STORE,
    async run(stack, random) {
      const seen: string[] = [];
      let refused = 0;
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 60; i++) stack.runtime.quotas.takeSheetsRequest(SHEETS_USER, 'write');
        const r = await stack.runtime.run('onScheduledSync', [], {
          killAtServiceCall: round === 1 ? random.int(20, 60) : undefined,
        });
        refused += r.counts.quotaRefusals;
        if (!r.ok && !r.timedOut) seen.push(`a run with the minute's writes used up threw: ${r.error?.message}`);
        const value = r.value as { outcome?: string; message?: string } | undefined;
        if (value?.outcome === 'error') seen.push(`a Sheets 429 reached the user as an error: ${value.message}`);
        await stack.control('orders', { count: random.int(20, 120) });
        await stack.advanceClocks(random.int(5, 30) * 1000);
      }
      if (refused === 0) seen.push('Google never refused a write: the scenario proved nothing');
      await survive(stack, seen);
      return seen;
    },
  },
  {
    name: 'document properties at their 500 KB limit',
    orders: 500,
    async run(stack) {
      const seen: string[] = [];
      await survive(stack, seen);
      await stack.control('orders', { count: 300 });
      const document = stack.runtime.properties.document;
      const filler: string[] = [];
      // Fill the store to within a few bytes of Google's 500 KB; a checkpoint can no longer be saved
      // unless the run gives up the Orders day sums it keeps (a saving the next tie-out rebuilds).
      for (const size of [8_000, 1_000, 100, 10, 1]) {
        for (;;) {
          const key = `filler_${filler.length}`;
          try {
            document.set(key, 'x'.repeat(size));
          } catch {
            break;
          }
          filler.push(key);
        }
      }
      const full = await stack.runtime.run('onScheduledSync', []);
      const value = full.value as { outcome?: string; message?: string } | undefined;
      if (full.ok && value?.outcome === 'ok' && !/storage for add-ons was full/.test(value.message ?? ''))
        seen.push(`a run with no room for its checkpoint reported ok without saying what it gave up: ${value.message}`);
      if (!full.ok && !/propert|storage|quota|size/i.test(full.error?.message ?? ''))
        seen.push(`unclear failure: ${full.error?.message}`);
      if (/exceeded the property storage quota/i.test(JSON.stringify(full.value ?? full.error ?? '')))
        seen.push("Google's raw quota text reached the user");
      for (const key of filler) document.delete(key);
      await survive(stack, seen);
      return seen;
    },
  },
];

/**
 * Trigger runs without the document until caught up; the sheets are compared right then, before
 * the final verdict's own (documented) run could make up for anything they missed.
 */
async function documentlessCatchUp(
  stack: ReliabilityStack,
  triggerUid: string,
  what: string,
  seen: string[],
): Promise<void> {
  const end = await triggerUntilSettled(stack, triggerUid);
  if (end.outcome !== 'ok') seen.push(`${what} fired without the document ended ${end.outcome}: ${end.message}`);
  const c = await compareWithTruth(stack);
  const differences = c.mismatches.length + c.missing.length + c.unexpected.length + c.duplicates.length;
  if (differences > 0)
    seen.push(
      `after ${what} fired without the document, ${differences} sheet rows differ from the truth: ${JSON.stringify(c).slice(0, 400)}`,
    );
}

async function changeOrder(stack: ReliabilityStack, id: string, kind: string): Promise<void> {
  try {
    await stack.control(`orders/${id}/change`, { kind });
  } catch (error) {
    // A change that does not apply to this order (a refund of a cancelled order) is refused with 409.
    if (!/answered 409/.test(String(error))) throw error;
  }
}
