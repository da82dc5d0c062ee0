import type { ServerResponse } from 'node:http';
import { ApplyError, ControlActions } from './actions.js';
import { sendError, sendJson } from '../http.js';

type Json = Record<string, unknown>;

function parseBody(body: Buffer): Json {
  const text = body.toString('utf8').trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApplyError(400, 'invalid_parameter', 'the body must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApplyError(400, 'invalid_parameter', 'the body must be a JSON object');
  return value as Json;
}

/** The data half of the control API (/_emulator/*); the auth routes are served by AuthServer first. */
export function handleControl(
  actions: ControlActions,
  method: string,
  url: URL,
  body: Buffer,
  res: ServerResponse,
): void {
  const path = url.pathname;
  const post = (run: (json: Json) => unknown): void => {
    if (method !== 'POST') return sendError(res, 405, 'method_not_allowed', `use POST for ${path}`, { Allow: 'POST' });
    sendJson(res, 200, run(parseBody(body)));
  };
  const get = (run: () => unknown): void => {
    if (method !== 'GET') return sendError(res, 405, 'method_not_allowed', `use GET for ${path}`, { Allow: 'GET' });
    sendJson(res, 200, run());
  };
  try {
    const record = /^\/_emulator\/(orders|products)\/([^/]+)\/(change|patch|silent-patch|vanish|raw)$/.exec(path);
    if (record) {
      let id: string;
      try {
        id = decodeURIComponent(record[2]!);
      } catch {
        throw new ApplyError(400, 'invalid_parameter', 'the record id in the path is not valid percent-encoding');
      }
      const [, collection, , action] = record;
      if (collection === 'orders' && action === 'change') return post((json) => actions.changeOrder(id, json));
      if (collection === 'orders' && action === 'patch') return post((json) => actions.patchOrder(id, json));
      if (collection === 'orders' && action === 'silent-patch')
        return post((json) => actions.silentPatchOrder(id, json));
      if (collection === 'orders' && action === 'raw') return post((json) => actions.rawOrderField(id, json));
      if (collection === 'orders' && action === 'vanish') return post(() => actions.vanishOrder(id));
      if (collection === 'products' && action === 'change') return post((json) => actions.changeProduct(id, json));
    }
    switch (path) {
      case '/_emulator/reset':
        return post((json) => actions.reset(json));
      case '/_emulator/clock':
        if (method === 'GET') return sendJson(res, 200, actions.clockNow());
        return post((json) => actions.advanceClock(json));
      case '/_emulator/orders':
        return post((json) => actions.placeOrders(json));
      case '/_emulator/faults':
        if (method === 'GET') return sendJson(res, 200, actions.faultList());
        return post((json) => actions.addFault(json));
      case '/_emulator/faults/clear':
        return post(() => actions.clearFaults());
      case '/_emulator/late-writers':
        return post((json) => actions.lateWriters(json));
      case '/_emulator/settings':
        return post((json) => actions.merchantSettings(json));
      case '/_emulator/plan':
        return post((json) => actions.changePlan(json));
      case '/_emulator/stats':
        return get(() => actions.stats());
      case '/_emulator/truth/store':
        return get(() => actions.truthStore(url.searchParams));
      case '/_emulator/truth/orders':
        return get(() => actions.truthOrders(url.searchParams));
      case '/_emulator/truth/products':
        return get(() => actions.truthProducts(url.searchParams));
      case '/_emulator/truth/daily':
        return get(() => actions.truthDaily(url.searchParams));
      case '/_emulator/truth/stores':
        return get(() => actions.truthStores());
      default:
        return sendError(res, 404, 'not_found', `no control route ${path}`);
    }
  } catch (error) {
    if (error instanceof ApplyError) return sendError(res, error.status, error.code, error.message);
    throw error;
  }
}
