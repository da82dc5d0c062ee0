import { startEmulator, type RunningEmulator, type StartOptions } from '../../dev/emulator/index.js';
import type { components } from '../../src/server/api/generated/schema.js';

export type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type Product = Schemas['Product'];
export type DailyRow = Schemas['DailyRow'];
export type Store = Schemas['Store'];

/** A parsed API answer: success bodies fill data/page/meta, error bodies fill error. */
export interface Answer<D> {
  success: boolean;
  data: D;
  page: Schemas['Page'];
  meta: Schemas['HistoryMeta'];
  error: { code: string; message: string };
}

export interface Reply<D> {
  status: number;
  headers: Headers;
  /** The raw body, for answers that are not JSON (injected HTML or truncated bodies). */
  text: string;
  body: Answer<D>;
}

export interface ControlReply<T> {
  status: number;
  body: T & { error: { code: string; message: string } };
}

export interface StoreTruth {
  store: Store;
  plan: string;
  tax_treated_as_cost: boolean;
  orders: number;
  first_order_date: string;
  today: string;
}

export const ALL_SCOPES = 'store:read orders:read products:read profitability:read offline_access';

export interface Harness {
  emu: RunningEmulator;
  token: string;
  /** GET an API path with the harness token; returns status, headers and parsed JSON. */
  get<D = unknown>(path: string, token?: string): Promise<Reply<D>>;
  control<T = Record<string, unknown>>(path: string, body?: unknown, method?: string): Promise<ControlReply<T>>;
  truthOrders(store?: string): Promise<Order[]>;
  mint(body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A real emulator on an ephemeral loopback port with a real token minted through the control API. */
export async function startHarness(options: StartOptions = {}): Promise<Harness> {
  const emu = await startEmulator({
    rateLimits: { burstPerMinute: 100_000, hourly: 100_000, daily: 1_000_000, clientGlobalPerMinute: 100_000 },
    ...options,
  });
  const control = async <T>(
    path: string,
    body?: unknown,
    method = body === undefined ? 'GET' : 'POST',
  ): Promise<ControlReply<T>> => {
    const res = await fetch(emu.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const mint = async (body: Record<string, unknown> = {}): Promise<string> => {
    const res = await control<{ access_token: string }>('/_emulator/tokens', { scope: ALL_SCOPES, ...body });
    if (res.status !== 200) throw new Error(`mint failed: ${JSON.stringify(res.body)}`);
    return res.body.access_token;
  };
  const token = await mint();
  const harness: Harness = {
    emu,
    token,
    async get<D>(path: string, tok = harness.token): Promise<Reply<D>> {
      const res = await fetch(emu.url + path, { headers: { Authorization: `Bearer ${tok}` } });
      const text = await res.text();
      let body: Answer<D> | null = null;
      try {
        body = JSON.parse(text) as Answer<D>;
      } catch {
        /* non-JSON bodies are read through `text` */
      }
      return { status: res.status, headers: res.headers, text, body: body as Answer<D> };
    },
    control,
    async truthOrders(store?: string): Promise<Order[]> {
      return (await control<{ data: Order[] }>(`/_emulator/truth/orders${store ? `?store=${store}` : ''}`)).body.data;
    },
    mint,
    close: () => emu.close(),
  };
  return harness;
}

/** Pages a list endpoint to the end, following next_cursor with the same filters. */
export async function pageAll<T = Order>(h: Harness, path: string): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const res: Reply<T[]> = await h.get<T[]>(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    rows.push(...res.body.data);
    if (!res.body.page.has_more) return rows;
    cursor = res.body.page.next_cursor;
  }
  throw new Error('pagination did not end');
}

export const cents = (amount: number): number => Math.round(amount * 100);
