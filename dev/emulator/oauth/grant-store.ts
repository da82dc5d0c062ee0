import type { EmulatorClock } from '../clock';
import { hashToken, randomToken } from './secrets';
import type { TokenLifetimes, TokenResponse } from './types';

export type RevocationReason = 'disconnected' | 'no_plan';
export type KillReason = 'store_moved' | 'code_replayed';

/** Spec 3.2: one merchant user's one connection to one application; it points at one store. */
export interface Connection {
  readonly id: string;
  readonly userId: string;
  readonly clientId: string;
  storeId: string;
  revoked: RevocationReason | null;
  /** Last API call or refresh, on the emulator clock; 90 days without use and the connection lapses. */
  lastUsedAt: number;
}

interface TokenBase {
  clientId: string;
  connection: Connection;
  /** null only for tokens minted without a store claim (control API, for tests of invalid_token_claims). */
  storeId: string | null;
  scopes: string[];
  expiresAt: number;
  /** The authorization code the token descends from, so a replayed code can revoke them all. */
  originCode: string | null;
  /** Set when the connection moved to another store or the authorization code was replayed. */
  killed: KillReason | null;
}

export type AccessTokenRecord = TokenBase;

export interface RefreshTokenRecord extends TokenBase {
  rotated: boolean;
}

export interface CodeRecord {
  readonly id: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  storeId: string;
  connection: Connection;
  expiresAt: number;
  used: boolean;
}

export interface IssueRequest {
  clientId: string;
  connection: Connection;
  storeId: string | null;
  scopes: string[];
  originCode: string | null;
  /** Overrides the access-token lifetime (control API only); may be 0 or negative for an expired token. */
  accessTokenSeconds?: number;
}

/** In-memory state of the authorization server: connections, codes and tokens (kept by hash). */
export class GrantStore {
  private connections = new Map<string, Connection>();
  private codes = new Map<string, CodeRecord>();
  private accessTokens = new Map<string, AccessTokenRecord>();
  private refreshTokens = new Map<string, RefreshTokenRecord>();
  private issuedAccess: string[] = [];
  private issuedRefresh: string[] = [];
  private sequence = 0;

  constructor(
    private readonly clock: EmulatorClock,
    private readonly lifetimes: TokenLifetimes,
  ) {}

  clear(): void {
    this.connections.clear();
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.issuedAccess = [];
    this.issuedRefresh = [];
  }

  current(userId: string, clientId: string): Connection | undefined {
    return this.connections.get(connectionKey(userId, clientId));
  }

  allConnections(): Connection[] {
    return [...this.connections.values()];
  }

  /**
   * The merchant approved (or a test minted tokens) for storeId. A live connection moves to that
   * store and every token held for another store dies; a revoked one is replaced by a new connection.
   */
  connect(userId: string, clientId: string, storeId: string): Connection {
    const key = connectionKey(userId, clientId);
    const existing = this.connections.get(key);
    const now = this.clock.now();
    if (existing && existing.revoked === null && !this.isLapsed(existing)) {
      if (existing.storeId !== storeId) {
        existing.storeId = storeId;
        this.killTokens('store_moved', (t) => t.connection === existing && t.storeId !== storeId);
      }
      existing.lastUsedAt = now;
      return existing;
    }
    const connection: Connection = {
      id: `conn_${++this.sequence}`,
      userId,
      clientId,
      storeId,
      revoked: null,
      lastUsedAt: now,
    };
    this.connections.set(key, connection);
    return connection;
  }

  revoke(connection: Connection, reason: RevocationReason): void {
    connection.revoked = reason;
  }

  isLapsed(connection: Connection): boolean {
    return this.clock.now() - connection.lastUsedAt >= this.lifetimes.idleLapseSeconds * 1000;
  }

  touch(connection: Connection): void {
    connection.lastUsedAt = this.clock.now();
  }

  issueCode(record: Omit<CodeRecord, 'id' | 'expiresAt' | 'used'>): string {
    const code = randomToken();
    const id = `code_${++this.sequence}`;
    this.codes.set(hashToken(code), {
      ...record,
      id,
      expiresAt: this.clock.now() + this.lifetimes.codeSeconds * 1000,
      used: false,
    });
    return code;
  }

  findCode(code: string): CodeRecord | undefined {
    return this.codes.get(hashToken(code));
  }

  /** OAuth 2.1 4.1.3: when a code is used twice, tokens already issued from it are revoked. */
  killTokensFromCode(codeId: string): void {
    this.killTokens('code_replayed', (t) => t.originCode === codeId);
  }

  issueTokens(request: IssueRequest): TokenResponse {
    const now = this.clock.now();
    const accessSeconds = request.accessTokenSeconds ?? this.lifetimes.accessTokenSeconds;
    const base = {
      clientId: request.clientId,
      connection: request.connection,
      storeId: request.storeId,
      scopes: [...request.scopes],
      originCode: request.originCode,
      killed: null,
    };
    const accessToken = randomToken();
    this.accessTokens.set(hashToken(accessToken), { ...base, expiresAt: now + accessSeconds * 1000 });
    this.issuedAccess.push(accessToken);
    const response: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.max(0, Math.round(accessSeconds)),
      scope: request.scopes.join(' '),
    };
    if (request.scopes.includes('offline_access')) {
      const refreshToken = randomToken();
      this.refreshTokens.set(hashToken(refreshToken), {
        ...base,
        expiresAt: now + this.lifetimes.refreshTokenSeconds * 1000,
        rotated: false,
      });
      this.issuedRefresh.push(refreshToken);
      response.refresh_token = refreshToken;
    }
    return response;
  }

  findAccessToken(token: string): AccessTokenRecord | undefined {
    return this.accessTokens.get(hashToken(token));
  }

  findRefreshToken(token: string): RefreshTokenRecord | undefined {
    return this.refreshTokens.get(hashToken(token));
  }

  issuedValues(): { access_tokens: string[]; refresh_tokens: string[] } {
    return { access_tokens: [...this.issuedAccess], refresh_tokens: [...this.issuedRefresh] };
  }

  private killTokens(reason: KillReason, matches: (token: TokenBase) => boolean): void {
    for (const token of this.accessTokens.values()) if (token.killed === null && matches(token)) token.killed = reason;
    for (const token of this.refreshTokens.values()) if (token.killed === null && matches(token)) token.killed = reason;
  }
}

function connectionKey(userId: string, clientId: string): string {
  return `${userId}\u0000${clientId}`;
}
