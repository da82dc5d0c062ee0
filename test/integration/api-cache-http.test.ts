/**
 * Spec 8.5 over HTTP: the emulator's real account, stores and summary answers (with their real
 * Cache-Control) fed to the client's transport. Each is reused from the document cache within its
 * max-age, for the same connection only; list pages are asked for every time.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';
import { createApiClient, type ApiClient } from '../../src/server/api/client';
import { headerLookup, type HttpAnswer, type HttpRequest } from '../../src/server/api/http';
import { ExecutionBudget } from '../../src/server/platform/budget';

let emulator: RunningEmulator;
let storeIds: string[];

async function mint(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${emulator.url}/_emulator/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Live answers recorded per path (the transport is synchronous, as UrlFetchApp is). */
async function record(token: string, paths: string[]): Promise<Map<string, HttpAnswer>> {
  const answers = new Map<string, HttpAnswer>();
  for (const path of paths) {
    const res = await fetch(`${emulator.url}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => (headers[key] = value));
    answers.set(path, { status: res.status, body: await res.text(), header: headerLookup(headers) });
  }
  return answers;
}

function replayingClient(
  token: string,
  answers: Map<string, HttpAnswer>,
  cache: Map<string, string>,
  requests: HttpRequest[],
): ApiClient {
  return createApiClient({
    baseUrl: emulator.url,
    tokens: { accessToken: () => token, refreshAfterInvalidToken: () => null },
    budget: new ExecutionBudget(),
    cache: { get: (k) => cache.get(k) ?? null, put: (k, v) => void cache.set(k, v) },
    sleep: () => undefined,
    transport: {
      digest: (text) => createHash('sha256').update(text).digest('base64url'),
      fetcher: {
        fetch: (request) => {
          requests.push(request);
          const answer = answers.get(request.url.slice(`${emulator.url}/api/v1`.length));
          if (!answer) throw new Error(`not recorded: ${request.url}`);
          return answer;
        },
      },
    },
  });
}

const PATHS = [
  '/account',
  '/stores',
  '/profitability/summary?start_date=2026-01-01&end_date=2026-01-31',
  '/orders?limit=5',
];

beforeAll(async () => {
  emulator = await startEmulator({ orders: 30, seed: 6, now: Date.parse('2026-02-01T12:00:00Z') });
  storeIds = emulator.state.storeRecords().map((s) => s.id);
});
afterAll(() => emulator.close());

describe('spec 8.5: Cache-Control of account, stores and summary is honoured', () => {
  it('each is fetched once within max-age; orders pages every time', async () => {
    const token = await mint({ user: 'cache@example.test' });
    const answers = await record(token, PATHS);
    for (const path of PATHS.slice(0, 3))
      expect([path, answers.get(path)!.header('Cache-Control')]).toEqual([path, expect.stringMatching(/max-age=\d+/)]);
    const cache = new Map<string, string>();
    const requests: HttpRequest[] = [];
    for (let execution = 0; execution < 2; execution++) {
      const client = replayingClient(token, answers, cache, requests);
      expect(client.account().store.id).toBe(storeIds[0]);
      expect(client.stores().map((s) => s.id)).toEqual([storeIds[0]]);
      expect(client.summary('2026-01-01', '2026-01-31').period.start).toBe('2026-01-01');
      expect(client.listOrders({ limit: 5 }).data).toHaveLength(5);
    }
    expect(requests.map((r) => r.url.slice(`${emulator.url}/api/v1`.length))).toEqual([...PATHS, '/orders?limit=5']);
  });

  it("a new connection to another store is not answered from the previous connection's cache", async () => {
    const cache = new Map<string, string>();
    const requests: HttpRequest[] = [];
    const first = await mint({ user: 'mover@example.test' });
    expect(replayingClient(first, await record(first, ['/account']), cache, requests).account().store.id).toBe(
      storeIds[0],
    );
    const moved = await mint({ user: 'mover@example.test', store: storeIds[1] });
    expect(replayingClient(moved, await record(moved, ['/account']), cache, requests).account().store.id).toBe(
      storeIds[1],
    );
    expect(requests).toHaveLength(2);
  });
});
