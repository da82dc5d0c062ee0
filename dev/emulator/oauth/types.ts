import type { EmulatorClock } from '../clock';

export interface StoreSummary {
  id: string;
  name: string;
  domain: string;
}

export interface AuthDeps {
  clock: EmulatorClock;
  /** Origin of the emulator, e.g. http://127.0.0.1:8787 (no trailing slash needed). */
  baseUrl: () => string;
  stores: () => StoreSummary[];
  defaultStoreId: () => string;
  redirectUris: string[];
  clientId: string;
  clientSecret: string;
  appName: string;
  /** Optional lifetimes in seconds; defaults are the spec's (8.4) and 60 s for codes. */
  lifetimes?: Partial<TokenLifetimes>;
}

export interface TokenLifetimes {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A connection with no API call and no refresh for this long lapses. */
  idleLapseSeconds: number;
  codeSeconds: number;
  /** How long a rendered sign-in/consent page may be submitted. */
  consentSeconds: number;
}

export const DEFAULT_LIFETIMES: TokenLifetimes = {
  accessTokenSeconds: 3600,
  refreshTokenSeconds: 90 * 86_400,
  idleLapseSeconds: 90 * 86_400,
  codeSeconds: 60,
  consentSeconds: 600,
};

export type BearerFailureCode =
  | 'missing_token'
  | 'invalid_token'
  | 'grant_revoked'
  | 'invalid_token_claims'
  | 'client_not_authorized'
  | 'insufficient_scope';

export type BearerResult =
  | { ok: true; clientId: string; storeId: string; scopes: string[] }
  | { ok: false; status: 401 | 403; code: BearerFailureCode | string; message: string };

/** RFC 6749 token endpoint answer (success). */
export interface TokenResponse {
  access_token: string;
  /** 'Bearer' (spec 5.5); another type only through the token-answers test control. */
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** The one application the emulator provisions (spec 5.1). */
export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  appName: string;
  redirectUris: string[];
  disabled: boolean;
}

/** Path of the resource the tokens are for, relative to the base URL. */
export const API_PATH = '/api/v1';
export const AUTHORIZE_PATH = '/api/auth/oauth2/authorize';
export const CONSENT_PATH = '/api/auth/oauth2/consent';
export const TOKEN_PATH = '/api/auth/oauth2/token';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/api/v1';
