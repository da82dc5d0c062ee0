/**
 * The Merchant Analytics endpoints (spec section 4), typed. Every list returns one page; callers
 * follow `nextCursor` sequentially with the same query (cursors are bound to their filters).
 */
import type { ExecutionBudget } from '../platform/budget';
import type { MetaInfo, PageInfo } from './envelope';
import { buildQuery, pathSegment, type QueryParams } from './query';
import type { CacheLike } from './response-cache';
import { Transport } from './transport';
import type { ApiAnswer, GetOptions, TokenSource, TransportOptions, TransportStats } from './transport-contract';
import type { Account, DailyRow, Order, Product, ProfitabilitySummary, Store } from './types';

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
  limit: number;
  meta: { historyAvailableFrom: string | null; truncated: boolean } | null;
  rateLimitRemaining: number | null;
}

/** The paging parameters every list endpoint takes, after its filters. */
interface PagingQuery {
  limit?: number;
  cursor?: string | null;
}

export interface OrderQuery {
  /** RFC 3339; records changed at or after this instant (oldest change first). */
  updatedAfter?: string;
  /** YYYY-MM-DD, store time zone. */
  createdAfter?: string;
  /** YYYY-MM-DD, store time zone. */
  createdBefore?: string;
  status?: 'default' | 'all';
  salesChannel?: 'd2c' | 'b2b';
  /** 1-250. */
  limit?: number;
  cursor?: string | null;
}

export interface ProductQuery {
  updatedAfter?: string;
  status?: string;
  /** 1-250. */
  limit?: number;
  cursor?: string | null;
}

export interface DailyQuery {
  /** YYYY-MM-DD, store time zone. */
  startDate: string;
  endDate: string;
  /** 1-400. */
  limit?: number;
  cursor?: string | null;
}

export interface SummaryAnswer {
  summary: ProfitabilitySummary;
  meta: MetaInfo | null;
  /** Seconds Cache-Control lets the answer be kept; null when it may not be (or came from the cache). */
  maxAgeSeconds: number | null;
}

export interface ApiClient {
  account(): Account;
  stores(): Store[];
  listOrders(query: OrderQuery): Page<Order>;
  getOrder(id: string): Order;
  listProducts(query: ProductQuery): Page<Product>;
  getProduct(id: string): Product;
  summary(startDate: string, endDate: string): ProfitabilitySummary;
  /** The summary with its history meta: `truncated` when the plan window cut the period (spec 8.3). */
  summaryAnswer(startDate: string, endDate: string): SummaryAnswer;
  listDaily(query: DailyQuery): Page<DailyRow>;
  /** The last RateLimit-Remaining (hourly budget) seen by this client, null before any. */
  rateLimitRemaining(): number | null;
  /** True when the next page request would stop for the hourly reserve (nothing sent); optional for stand-ins. */
  pageReserveReached?(): boolean;
  readonly stats: TransportStats;
}

export interface ApiClientOptions {
  baseUrl: string;
  tokens: TokenSource;
  budget: ExecutionBudget;
  /** Usually CacheService.getDocumentCache(); responses with Cache-Control max-age are kept there. */
  cache?: CacheLike | null;
  sleep?: (ms: number) => void;
  /** Everything else the transport accepts (tests inject a fetcher, clock, randomness). */
  transport?: Omit<TransportOptions, 'baseUrl' | 'tokens' | 'budget' | 'cache' | 'sleep'>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = new Transport({
    ...options.transport,
    baseUrl: options.baseUrl,
    tokens: options.tokens,
    budget: options.budget,
    cache: options.cache,
    sleep: options.sleep,
  });
  const one = <T>(path: string, query = '', opts: GetOptions = {}): T => transport.get(path, query, opts).data as T;
  const page = <T>(path: string, filters: QueryParams, paging: PagingQuery): Page<T> =>
    toPage<T>(
      transport.get(path, buildQuery([...filters, ['limit', paging.limit], ['cursor', paging.cursor]]), { list: true }),
    );

  const summaryAnswer = (startDate: string, endDate: string): SummaryAnswer => {
    const query = buildQuery([
      ['start_date', startDate],
      ['end_date', endDate],
    ]);
    const answer = transport.get('/profitability/summary', query, { cacheable: true });
    return { summary: answer.data as ProfitabilitySummary, meta: answer.meta, maxAgeSeconds: answer.maxAgeSeconds };
  };

  return {
    stats: transport.stats,
    rateLimitRemaining: () => transport.rateLimitRemaining,
    pageReserveReached: () => transport.pageReserveReached(),
    account: () => one<Account>('/account', '', { cacheable: true }),
    stores: () => {
      const data = transport.get('/stores', '', { cacheable: true }).data;
      return (Array.isArray(data) ? data : [data]) as Store[];
    },
    listOrders: (q) =>
      page<Order>(
        '/orders',
        [
          ['updated_after', q.updatedAfter],
          ['created_after', q.createdAfter],
          ['created_before', q.createdBefore],
          ['status', q.status],
          ['sales_channel', q.salesChannel],
        ],
        q,
      ),
    getOrder: (id) => one<Order>(`/orders/${pathSegment(id)}`),
    listProducts: (q) =>
      page<Product>(
        '/products',
        [
          ['updated_after', q.updatedAfter],
          ['status', q.status],
        ],
        q,
      ),
    getProduct: (id) => one<Product>(`/products/${pathSegment(id)}`),
    summary: (startDate, endDate) => summaryAnswer(startDate, endDate).summary,
    summaryAnswer: (startDate, endDate) => summaryAnswer(startDate, endDate),
    listDaily: (q) =>
      page<DailyRow>(
        '/profitability/daily',
        [
          ['start_date', q.startDate],
          ['end_date', q.endDate],
        ],
        q,
      ),
  };
}

function toPage<T>(answer: ApiAnswer): Page<T> {
  const info = answer.page as PageInfo;
  return {
    data: answer.data as T[],
    hasMore: info.hasMore,
    nextCursor: info.nextCursor,
    limit: info.limit,
    meta: answer.meta,
    rateLimitRemaining: answer.rateLimitRemaining,
  };
}
