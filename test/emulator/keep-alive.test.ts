/**
 * Idle connections: Node's HTTP agent (keep-alive by default since Node 19, idle timeout 5 s) and
 * undici's fetch (4 s) reuse sockets. A server that drops an idle socket at the same moment as its
 * client races it, and the request sent on that socket fails with `read ECONNRESET` (the cause of
 * the intermittent failure of test/integration/sync-reconcile-resume.test.ts). The emulator keeps
 * idle sockets longer than any of its clients, so the client always closes first.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ orders: 5, seed: 1 });
});
afterAll(() => emulator.close());

/** GET on a one-socket keep-alive agent; resolves with the answer's Keep-Alive header and whether the socket was reused. */
function get(
  agent: http.Agent,
  path: string,
): Promise<{ status: number; keepAlive: string | undefined; reused: boolean; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${emulator.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          keepAlive: String(res.headers['keep-alive'] ?? ''),
          reused: req.reusedSocket,
          localPort: (req.socket!.address() as AddressInfo).port,
        }),
      );
    });
    req.on('error', reject);
  });
}

describe('idle keep-alive connections outlast every client', () => {
  it('announces an idle timeout longer than Node’s agent (5 s) and undici (4 s)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await get(agent, '/_emulator/clock');
    agent.destroy();
    const seconds = Number(/timeout=(\d+)/.exec(answer.keepAlive ?? '')?.[1]);
    const nodeAgentIdleMs = (http.globalAgent as unknown as { options: { timeout?: number } }).options.timeout ?? 0;
    expect(seconds * 1000).toBeGreaterThan(nodeAgentIdleMs);
    expect(seconds).toBeGreaterThan(5);
  });

  it('still holds a socket left idle past the clients’ timeouts, so a request sent on it is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 60_000 });
    const first = await get(agent, '/_emulator/clock');
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const second = await get(agent, '/_emulator/clock');
    agent.destroy();
    expect(second.status).toBe(200);
    expect(second.reused, 'the server kept the idle socket open').toBe(true);
    expect(second.localPort).toBe(first.localPort);
  }, 15_000);
});
