import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CursorCodec } from './api/cursor.js';
import { ApiRouter } from './api/router.js';
import { EmulatorClock } from './clock.js';
import { ControlActions } from './control/actions.js';
import { FaultInjector } from './faults.js';
import { AuthServer } from './oauth/index.js';
import { DEFAULT_OPTIONS, type EmulatorOptions } from './options.js';
import { RateLimiter, type RateLimits } from './ratelimit.js';
import { createEmulatorServer } from './server.js';
import { EmulatorState } from './state.js';
import { RequestStats } from './stats.js';

export { EmulatorState } from './state.js';
export type { EmulatorOptions } from './options.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi/merchant-analytics.openapi.json', import.meta.url));
export const DEMO_CLIENT_ID = 'ma_demo_sheets_addon';
export const APP_NAME = 'Merchant Analytics for Google Sheets';

export interface StartOptions extends Partial<EmulatorOptions> {
  /** Defaults to a fresh random secret per emulator process. */
  clientSecret?: string;
  clientId?: string;
  /** Overrides of the spec 8.1 limits (benchmarks lift them). */
  rateLimits?: Partial<RateLimits>;
  /** false: the clock moves only through the control API (default true: real time plus those moves). */
  clockFollowsRealTime?: boolean;
}

export interface RunningEmulator {
  url: string;
  clientId: string;
  clientSecret: string;
  state: EmulatorState;
  clock: EmulatorClock;
  close(): Promise<void>;
}

/** Starts the whole emulator on loopback; `port` defaults to 0 (ephemeral) when started from code. */
export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { clientSecret: givenSecret, clientId: givenId, rateLimits, clockFollowsRealTime, ...dataOptions } = options;
  const startOptions: EmulatorOptions = { ...DEFAULT_OPTIONS, port: 0, ...dataOptions };
  if (startOptions.host !== '127.0.0.1' && startOptions.host !== 'localhost')
    throw new Error('the emulator binds loopback only');
  const clientId = givenId ?? DEMO_CLIENT_ID;
  const clientSecret = givenSecret ?? `mas_${randomBytes(24).toString('base64url')}`;
  const clock = new EmulatorClock(clockFollowsRealTime !== false);
  const state = new EmulatorState(clock, startOptions);
  let baseUrl = '';
  const auth = new AuthServer({
    clock,
    baseUrl: () => baseUrl,
    stores: () => state.storeRecords().map((s) => ({ id: s.id, name: s.name, domain: s.domain })),
    defaultStoreId: () => state.defaultStoreId,
    redirectUris: startOptions.redirectUris,
    clientId,
    clientSecret,
    appName: APP_NAME,
  });
  const limiter = new RateLimiter(clock, rateLimits);
  const faults = new FaultInjector();
  const stats = new RequestStats();
  const openapi = readFileSync(OPENAPI_FILE, 'utf8');
  const api = new ApiRouter({
    state,
    auth,
    limiter,
    faults,
    cursors: new CursorCodec(
      () => clock.now(),
      () => state.generation,
    ),
    openapiText: () => openapi,
  });
  const control = new ControlActions({ state, auth, limiter, faults, stats, startOptions });
  const server = createEmulatorServer({ api, auth, control, faults, stats, baseUrl: () => baseUrl });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(startOptions.port, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    clientId,
    clientSecret,
    state,
    clock,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
