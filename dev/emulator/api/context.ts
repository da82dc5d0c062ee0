import type { StoreData } from '../data/store-data.js';
import type { EmulatorState } from '../state.js';
import type { RateLimits } from '../ratelimit.js';
import type { CursorCodec } from './cursor.js';

/** What an endpoint handler reads: the token's store, the state, the caller and the query. */
export interface ApiContext {
  state: EmulatorState;
  data: StoreData;
  cursors: CursorCodec;
  clientId: string;
  scopes: string[];
  rateLimits: RateLimits;
  params: URLSearchParams;
  /** The path segment after the collection, for single-record endpoints. */
  recordId: string | null;
}

export interface ApiResult {
  body: unknown;
  headers?: Record<string, string>;
}

export interface PageInfo {
  has_more: boolean;
  next_cursor: string | null;
  limit: number;
}

export interface HistoryMeta {
  history_available_from: string | null;
  truncated: boolean;
}
