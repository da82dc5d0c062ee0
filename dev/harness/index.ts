/**
 * The test harness: an emulator (or one already listening), the local Apps Script runtime loaded
 * from dist/, wired together over loopback HTTP and configured like a deployment. Everyone's
 * integration tests, the demo and the playground start from here.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../emulator/index';
import { createRuntime, type GasRuntime } from '../gas-runtime/index';
import { connectOverHttp, type ConnectOptions, type ConnectResult } from './connect';
import { deployedApiOrigin } from './allowlist-base';
import { jsonCall } from './http';
import { defaultLibraries } from './libraries';

export type { ConnectOptions, ConnectResult } from './connect';
export { AUTHORIZATION_URL_GLOBAL, readAuthorizationUrl } from './connect';
export { OAUTH2_STANDIN, REAL_OAUTH2_LIBRARY, defaultLibraries, oauth2Source } from './libraries';

export interface StackOptions {
  orders?: number;
  seed?: number;
  plan?: 'starter' | 'pro' | 'plus';
  /** More URL prefixes UrlFetchApp may reach besides the API (another server a test runs). */
  urlFetchAllow?: string[];
  /** Days of history the emulator generates (its default 400). */
  days?: number;
  /** Load (and later save) the runtime's stores from here. */
  stateDir?: string;
  /**
   * Use the emulator already listening there instead of starting one: its data and grants are kept
   * (orders, seed and plan are ignored); the runtime's callback is added to its redirect URIs and
   * the client credentials are read from GET /_emulator/client.
   */
  apiUrl?: string;
  /** Built add-on to load; default dist/ at the repository root. */
  distDir?: string;
  /**
   * Library files by userSymbol. Default: the real OAuth2 library at ../shared/vendor when present
   * (see the library table); env GAS_LIBRARY_<symbol> wins over both; else the runtime's stand-in.
   */
  libraries?: Record<string, string>;
  /** Global that returns the authorization URL; default the sidebar's beginConnect. */
  authorizationUrlGlobal?: string;
  /** The runtime's clock moves by modelled time only (see RuntimeOptions.modelledTimeOnly). */
  modelledTimeOnly?: boolean;
  /**
   * With modelledTimeOnly: the emulator's clock too stands still between the runtime's modelled
   * moves (clockFollowsRealTime: false, as the bench runs it), so the API's per-minute limits and
   * expiries see the same time as the add-on, however loaded the host is.
   */
  emulatorClockInStep?: boolean;
}

export interface Stack {
  /** The in-process emulator, or null when apiUrl named one already running. */
  emulator: RunningEmulator | null;
  runtime: GasRuntime;
  apiUrl: string;
  /** The runtime's loopback /usercallback, registered with the emulator and in MA_REDIRECT_URI. */
  redirectUri: string;
  connect(options?: ConnectOptions): Promise<ConnectResult>;
  /** POST (with body) or GET (without) {apiUrl}/_emulator/{path}. */
  control(controlPath: string, body?: unknown): Promise<unknown>;
  /** GET {apiUrl}/_emulator/truth/{kind}. */
  truth(kind: string): Promise<unknown>;
  /** Moves the runtime's and the emulator's clocks forward together. */
  advanceClocks(ms: number): Promise<void>;
  close(): Promise<void>;
}

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..', '..');

/** Starts (or joins) an emulator and a runtime configured for it; close() stops what it started, also when starting fails half-way. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = options.apiUrl
    ? null
    : await startEmulator({
        ...(options.orders !== undefined ? { orders: options.orders } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.plan !== undefined ? { plan: options.plan } : {}),
        ...(options.days !== undefined ? { days: options.days } : {}),
        ...(options.modelledTimeOnly && options.emulatorClockInStep ? { clockFollowsRealTime: false } : {}),
      });
  const apiUrl = (options.apiUrl ?? emulator!.url).replace(/\/+$/, '');
  const control = (controlPath: string, body?: unknown): Promise<unknown> =>
    jsonCall(`${apiUrl}/_emulator/${controlPath.replace(/^\/+/, '').replace(/^_emulator\//, '')}`, body);

  let runtime: GasRuntime | null = null;
  let pendingSleepMs = 0;
  const libraries = options.libraries ?? defaultLibraries();
  try {
    const clock = (await control('clock')) as { now: string };
    runtime = await createRuntime({
      distDir: options.distDir ?? path.join(ROOT, 'dist'),
      startTime: Date.parse(clock.now),
      // The manifest's urlFetchWhitelist decides, the emulator standing in for the deployed API.
      urlFetchWhitelistBase: { from: deployedApiOrigin(ROOT), to: new URL(apiUrl).origin },
      urlFetchAllow: options.urlFetchAllow ?? [],
      ...(libraries ? { libraries } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
      ...(options.modelledTimeOnly ? { modelledTimeOnly: true } : {}),
      // Modelled waits come in small steps: the emulator's clock follows in whole seconds.
      onSleep: async (ms) => {
        pendingSleepMs += ms;
        if (pendingSleepMs < 1000) return;
        const seconds = Math.floor(pendingSleepMs / 1000);
        pendingSleepMs -= seconds * 1000;
        await control('clock', { advance_seconds: seconds });
      },
    });
    const redirectUri = await runtime.startCallbackServer();
    // Adding the loopback callback keeps the emulator's grants, so a restored --state stays connected.
    const client = await registerRedirectUri(control, redirectUri);
    configureForEmulator(runtime, apiUrl, client, redirectUri);
    const rt = runtime;
    return {
      emulator,
      runtime: rt,
      apiUrl,
      redirectUri,
      connect: (connectOptions) => connectOverHttp(rt, connectOptions, options.authorizationUrlGlobal),
      control,
      truth: (kind) => control(`truth/${kind}`),
      advanceClocks: async (ms) => {
        rt.clock.advance(ms);
        await control('clock', { advance_seconds: ms / 1000 });
      },
      close: async () => {
        await rt.close();
        if (emulator) await emulator.close();
      },
    };
  } catch (error) {
    if (runtime) await runtime.close();
    if (emulator) await emulator.close();
    throw error;
  }
}

interface EmulatorClient {
  clientId: string;
  clientSecret: string;
}

/** Registers the runtime's callback with the emulator's demo client and reads the client's credentials. */
async function registerRedirectUri(
  control: (controlPath: string, body?: unknown) => Promise<unknown>,
  redirectUri: string,
): Promise<EmulatorClient> {
  await control('redirect-uris', { add: [redirectUri] });
  const client = (await control('client')) as { client_id?: unknown; client_secret?: unknown };
  if (typeof client.client_id !== 'string' || typeof client.client_secret !== 'string') {
    throw new Error(
      "GET /_emulator/client did not answer the demo client's client_id and client_secret; is this a Merchant Analytics emulator?",
    );
  }
  return { clientId: client.client_id, clientSecret: client.client_secret };
}

/** Script properties as `npm run configure` would set them for a deployment (the deployment config). */
function configureForEmulator(runtime: GasRuntime, apiUrl: string, client: EmulatorClient, redirectUri: string): void {
  const script = runtime.properties.script;
  script.set('MA_API_BASE_URL', apiUrl);
  script.set('MA_CLIENT_ID', client.clientId);
  script.set('MA_CLIENT_SECRET', client.clientSecret);
  script.set('MA_REDIRECT_URI', redirectUri);
}
