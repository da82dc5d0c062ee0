/**
 * Modelled time of the BigQuery advanced service's calls: every call one REST round trip
 * (timing.ts REQUEST_MS), plus the time jobs.query and jobs.getQueryResults waited for their job,
 * which the service records on the answer it returns (`chargeWait`).
 */
import { REQUEST_MS } from '../bigquery/timing.js';

const waits = new WeakMap<object, number>();

/** The service waited `ms` for a job before answering with `answer`. */
export function chargeWait<T extends object>(answer: T, ms: number): T {
  waits.set(answer, ms);
  return answer;
}

export function bigQueryCallMs(result: unknown): number {
  const waited = result !== null && typeof result === 'object' ? (waits.get(result) ?? 0) : 0;
  return REQUEST_MS + waited;
}
