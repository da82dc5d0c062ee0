/** The Merchant Analytics client: what the rest of the add-on imports. */
export { createApiClient } from './client';
export type { ApiClient, ApiClientOptions, DailyQuery, OrderQuery, Page, ProductQuery } from './client';
export type { TokenSource, TransportStats } from './transport-contract';
export type { CacheLike } from './response-cache';
export * from './errors';
export * from './types';
