/**
 * The API's minute as a feed sees it: every cursor feed of a run (the orders feed, the
 * reconciliation pass) lists its pages under the same burst pace, handed over between executions.
 */
import { documentProperties } from '../platform/properties';
import { API_MINUTE_KEY, BurstPace } from './burst-pace';
import type { JobContext } from './job-context';

export function feedPace(ctx: JobContext): BurstPace {
  return new BurstPace({
    now: () => Date.now(),
    sent: () => ctx.api.stats.requests,
    handedOver: ctx.state.readAtStart[API_MINUTE_KEY],
    keep: (value) => documentProperties().setProperty(API_MINUTE_KEY, value),
    hourlyRemaining: () => ctx.api.rateLimitRemaining(),
  });
}
