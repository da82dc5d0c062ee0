/**
 * A store syncing into BigQuery behind a front that serves the orders named in `unknownCost` with a
 * cost the service does not know: economics.cogs and net_profit null (spec 2.7), and, with
 * `lineCogs`, their first line's cogs too. Every other answer passes through unchanged.
 */
import { expect } from 'vitest';
import { DATASET, PROJECT } from './bigquery-support';
import { startHostileFront, type HostileFront } from '../reliability/support/hostile-front';
import { startReliabilityStack, type ReliabilityStack } from '../reliability/support/reliability-stack';

type Json = Record<string, unknown>;

export const NULLED = ['cogs', 'net_profit'];

export async function startUnknownCostStore(
  options: { orders: number; seed: number; lineCogs: boolean },
  unknownCost: ReadonlySet<string>,
): Promise<{ stack: ReliabilityStack; front: HostileFront }> {
  const front = await startHostileFront();
  const stack = await startReliabilityStack({
    orders: options.orders,
    seed: options.seed,
    urlFetchAllow: [`${front.url}/`],
    modelledTimeOnly: true,
    emulatorClockInStep: true,
  });
  front.upstream = stack.apiUrl;
  stack.runtime.properties.script.set('MA_API_BASE_URL', front.url);
  const set = await stack.runtime.run('setOrdersDestination', [
    { kind: 'bigquery', projectId: PROJECT, datasetId: DATASET },
  ]);
  expect(set.error?.message).toBeUndefined();
  front.rewrite = (req, status, body) => {
    if (!req.path.startsWith('/api/v1/orders') || status !== 200) return null;
    const json = JSON.parse(body) as { data?: Json[] };
    let hit = false;
    for (const o of json.data ?? []) {
      if (!unknownCost.has(String(o.id))) continue;
      for (const field of NULLED) (o.economics as Json)[field] = null;
      if (options.lineCogs) ((o.line_items as Json[])[0] as Json).cogs = null;
      hit = true;
    }
    return hit ? JSON.stringify(json) : null;
  };
  return { stack, front };
}
