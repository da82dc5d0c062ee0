/**
 * A timestamp cell in the hour a daylight-saving change repeats (01:30 on the first Sunday of
 * November in New York is 05:30Z and 06:30Z) holds a wall-clock serial that reads as either
 * instant. The sheets cannot say which, the service can: the move asks it for those orders
 * (GET /orders/{id}, spec 4.5) and keeps the instant its record names. An order the service no
 * longer has (404), or whose field has changed since, keeps the first reading: the feed rewrites
 * a changed order when it lists it.
 */
import { isApiError, type ApiClient } from '../api';
import { valueAt } from '../sheets/rows';
import type { WarehouseRowRead } from './switch-rows';

export function settleAmbiguousInstants(api: ApiClient, reads: readonly WarehouseRowRead[]): void {
  for (const { row, ambiguous } of reads) {
    const fromApi = ambiguous.filter((a) => a.path !== null);
    if (fromApi.length === 0) continue;
    let order: unknown;
    try {
      order = api.getOrder(String(row.id));
    } catch (e) {
      if (isApiError(e) && e.status === 404) continue;
      throw e;
    }
    for (const { field, path, instants } of fromApi) {
      const named = Date.parse(String(valueAt(order, path ?? [])));
      if (instants.includes(named)) row[field] = new Date(named).toISOString();
    }
  }
}
