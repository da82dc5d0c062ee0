import { startEmulator, type RunningEmulator, type StartOptions } from '../../dev/emulator/index.js';

export const ALL_SCOPES = 'store:read orders:read products:read profitability:read offline_access';

export interface Harness {
  emu: RunningEmulator;
  token: string;
  /** GET an API path with the harness token; returns status, headers and parsed JSON. */
  get(path: string, token?: string): Promise<{ status: number; headers: Headers; body: any }>;
  control(path: string, body?: unknown, method?: string): Promise<{ status: number; body: any }>;
  mint(body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A real emulator on an ephemeral loopback port with a real token minted through the control API. */
export async function startHarness(options: StartOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ rateLimits: { burstPerMinute: 100_000, hourly: 100_000, daily: 1_000_000, clientGlobalPerMinute: 100_000 }, ...options });
  const control = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(emu.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const mint = async (body: Record<string, unknown> = {}): Promise<string> => {
    const res = await control('/_emulator/tokens', { scope: ALL_SCOPES, ...body });
    if (res.status !== 200) throw new Error(`mint failed: ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  };
  const token = await mint();
  const harness: Harness = {
    emu,
    token,
    async get(path, tok = harness.token) {
      const res = await fetch(emu.url + path, { headers: { Authorization: `Bearer ${tok}` } });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* non-JSON bodies stay text */
      }
      return { status: res.status, headers: res.headers, body };
    },
    control,
    mint,
    close: () => emu.close(),
  };
  return harness;
}

/** Pages a list endpoint to the end, following next_cursor with the same filters. */
export async function pageAll(h: Harness, path: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await h.get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    rows.push(...res.body.data);
    if (!res.body.page.has_more) return rows;
    cursor = res.body.page.next_cursor;
  }
  throw new Error('pagination did not end');
}

export const cents = (amount: number): number => Math.round(amount * 100);
