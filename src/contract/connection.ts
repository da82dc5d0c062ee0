/**
 * The connection as the sidebar shows it: its state, the store it reads, the plan and freshness,
 * and problems with what to do. Part of the sidebar contract: JSON-safe, as everything crossing
 * google.script.run.
 */

/** What the user should do about a problem; every problem the sidebar shows carries one. */
export type UserAction =
  'retry_later' | 'refresh' | 'reconnect' | 'wait' | 'contact_operator' | 'fix_request' | 'connect' | 'configure';

export interface ProblemView {
  /** ApiError code, connection state or 'internal' — for support, never parsed by the sidebar. */
  code: string;
  /** A sentence a finance person understands. */
  userMessage: string;
  action: UserAction;
  /** ISO time after which a retry makes sense (Retry-After), else null. */
  retryAt: string | null;
}

export type ConnectionStateName =
  | 'not_configured'
  | 'not_connected'
  | 'connected'
  | 'revoked'
  | 'store_changed'
  | 'invalid_claims'
  | 'missing_scope'
  | 'lapsed'
  | 'operator_problem';

export interface StoreView {
  id: string;
  name: string;
  domain: string;
  platform: string;
  currency: string;
  timezone: string;
}

export interface ConnectionView {
  state: ConnectionStateName;
  /** The store the connection reads (null until the account has been read once). */
  store: StoreView | null;
  /** Why the connection is not usable, with the action; null when connected. */
  problem: ProblemView | null;
  /** Whose connection it is (the Google account that connected; only they can renew it); null when unknown. */
  connectedBy?: string | null;
  /** True when it is the connection of the user looking at the sidebar; absent when Google does not say who that user is. */
  yours?: boolean;
}

export interface PlanView {
  /** The merchant's plan ('starter' | 'pro' | 'plus'), null when the account does not say. */
  name: string | null;
  /** Earliest date the plan shows (YYYY-MM-DD); null means full history. */
  historyAvailableFrom: string | null;
  historyDays: number | null;
}

export interface FreshnessView {
  /** When the service last synced the store from its platform (account.data_availability). */
  lastSyncAt: string | null;
  stale: boolean;
}

export interface ConnectStart {
  authorizationUrl: string;
}
