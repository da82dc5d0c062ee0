import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorClock } from '../clock';
import type { AuthStats } from './auth-stats';
import { authenticateClient, detectClientAuthMethod } from './client-auth';
import { namesThisApi } from './discovery';
import type { GrantStore } from './grant-store';
import { parseForm, sendJson, sendTruncatedJson } from './http-io';
import { isWellFormedVerifier, verifierMatches } from './pkce';
import type { PkceLedger } from './pkce-ledger';
import { parseScope } from './scopes';
import type { TokenAnswerOverrides } from './token-answer';
import type { IssueRequest } from './grant-store';
import type { RegisteredClient, TokenResponse } from './types';

export interface TokenEndpointContext {
  clock: EmulatorClock;
  grants: GrantStore;
  client: () => RegisteredClient;
  baseUrl: () => string;
  stats: AuthStats;
  pkce: PkceLedger;
  answers: TokenAnswerOverrides;
}

type Outcome = { ok: true; tokens: TokenResponse } | { ok: false; error: string; description: string };

const failure = (error: string, description: string): Outcome => ({ ok: false, error, description });

/** POST /api/auth/oauth2/token (spec 5.5, 5.7): RFC 6749 bodies, HTTP Basic client authentication only. */
export class TokenEndpoint {
  constructor(private readonly ctx: TokenEndpointContext) {}

  handle(req: IncomingMessage, res: ServerResponse, body: Buffer, truncateSuccess = false): void {
    if (req.method !== 'POST') {
      this.ctx.stats.tokenFailure('invalid_request');
      return sendJson(
        res,
        405,
        { error: 'invalid_request', error_description: 'the token endpoint accepts POST only' },
        { Allow: 'POST' },
      );
    }
    const form = parseForm(req, body);
    const fields = form.ok ? form.fields : new Map<string, string[]>();
    const grantType = fields.get('grant_type')?.[0] ?? '(none)';
    this.ctx.stats.tokenRequest(grantType, detectClientAuthMethod(req, fields));
    const outcome = form.ok ? this.exchange(req, fields) : failure('invalid_request', form.message);
    if (outcome.ok && truncateSuccess) return sendTruncatedJson(res, outcome.tokens);
    if (outcome.ok) return sendJson(res, 200, outcome.tokens);
    this.ctx.stats.tokenFailure(outcome.error);
    const status = outcome.error === 'invalid_client' ? 401 : 400;
    const headers: Record<string, string> =
      status === 401 ? { 'WWW-Authenticate': 'Basic realm="Merchant Analytics"' } : {};
    sendJson(res, status, { error: outcome.error, error_description: outcome.description }, headers);
  }

  private exchange(req: IncomingMessage, fields: Map<string, string[]>): Outcome {
    const auth = authenticateClient(req, fields, this.ctx.client());
    if (!auth.ok) return failure(auth.error, auth.description);
    const repeated = [...fields].filter(([, values]) => values.length > 1).map(([name]) => name);
    if (repeated.length > 0)
      return failure('invalid_request', `parameters sent more than once: ${repeated.join(', ')}`);
    const field = (name: string): string | null => fields.get(name)?.[0] ?? null;
    const resource = field('resource');
    if (resource !== null && !namesThisApi(resource, this.ctx.baseUrl())) {
      return failure('invalid_target', 'resource must be this API, {base_url}/api/v1');
    }
    const grantType = field('grant_type');
    if (grantType === null) return failure('invalid_request', 'grant_type is required');
    if (grantType === 'authorization_code') return this.redeemCode(field);
    if (grantType === 'refresh_token') return this.refresh(field);
    return failure('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  }

  private redeemCode(field: (name: string) => string | null): Outcome {
    const code = field('code');
    const verifier = field('code_verifier');
    if (code === null) return failure('invalid_request', 'code is required');
    if (verifier === null) return failure('invalid_request', 'code_verifier is required (PKCE)');
    const record = this.ctx.grants.findCode(code);
    const wellFormed = isWellFormedVerifier(verifier);
    this.ctx.pkce.record({
      at: new Date(this.ctx.clock.now()).toISOString(),
      code_verifier: verifier,
      code_challenge: record ? record.codeChallenge : null,
      well_formed: wellFormed,
      matched: record !== undefined && wellFormed && verifierMatches(verifier, record.codeChallenge),
    });
    if (!wellFormed) return failure('invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9-._~]');
    const clientId = this.ctx.client().clientId;
    if (!record || record.clientId !== clientId) return failure('invalid_grant', 'the authorization code is not valid');
    if (record.used) {
      this.ctx.grants.killTokensFromCode(record.id);
      return failure('invalid_grant', 'the authorization code was already used; tokens issued from it are revoked');
    }
    // Any attempt spends the code, so a wrong verifier cannot be retried against it.
    record.used = true;
    if (record.expiresAt <= this.ctx.clock.now()) return failure('invalid_grant', 'the authorization code has expired');
    if (field('redirect_uri') !== record.redirectUri) {
      return failure('invalid_grant', 'redirect_uri does not match the authorize request byte for byte');
    }
    if (!verifierMatches(verifier, record.codeChallenge))
      return failure('invalid_grant', 'code_verifier does not match the code_challenge');
    const connection = record.connection;
    if (connection.revoked !== null || connection.storeId !== record.storeId) {
      return failure('invalid_grant', 'the connection behind this code no longer exists');
    }
    this.ctx.grants.touch(connection);
    return {
      ok: true,
      tokens: this.issue({
        clientId,
        connection,
        storeId: record.storeId,
        scopes: record.scopes,
        originCode: record.id,
      }),
    };
  }

  private refresh(field: (name: string) => string | null): Outcome {
    const value = field('refresh_token');
    if (value === null) return failure('invalid_request', 'refresh_token is required');
    const token = this.ctx.grants.findRefreshToken(value);
    const now = this.ctx.clock.now();
    if (!token || token.clientId !== this.ctx.client().clientId)
      return failure('invalid_grant', 'the refresh token is not valid');
    const connection = token.connection;
    if (connection.revoked !== null)
      return failure('invalid_grant', 'the merchant disconnected the application; reconnect required');
    if (token.rotated) return failure('invalid_grant', 'the refresh token was already exchanged; use the newest one');
    if (token.killed === 'code_replayed')
      return failure('invalid_grant', 'the refresh token was revoked because its authorization code was used twice');
    if (token.killed !== null || token.storeId === null || connection.storeId !== token.storeId) {
      return failure('invalid_grant', 'the connection now reads another store; reconnect required');
    }
    if (token.expiresAt <= now || this.ctx.grants.isLapsed(connection)) {
      return failure('invalid_grant', 'the connection lapsed after 90 days without use; reconnect required');
    }
    let scopes = token.scopes;
    const requested = field('scope');
    if (requested !== null) {
      const parsed = parseScope(requested);
      if (!parsed.ok || parsed.scopes.some((scope) => !token.scopes.includes(scope))) {
        return failure('invalid_scope', 'a refresh may only narrow the granted scopes');
      }
      // offline_access stays: spec 5.7 promises a new refresh token on every exchange.
      scopes = parsed.scopes.includes('offline_access') ? parsed.scopes : [...parsed.scopes, 'offline_access'];
    }
    token.rotated = true;
    this.ctx.grants.touch(connection);
    // Rotation keeps the lineage, so a replayed authorization code still revokes the whole chain.
    const tokens = this.issue({
      clientId: token.clientId,
      connection,
      storeId: token.storeId,
      scopes,
      originCode: token.originCode,
    });
    return { ok: true, tokens };
  }

  /** Issues the tokens of a successful exchange, as a test control may have asked (the token answer). */
  private issue(request: IssueRequest): TokenResponse {
    const override = this.ctx.answers.take();
    const scopes = override?.scopes
      ? request.scopes.filter((scope) => override.scopes!.includes(scope))
      : request.scopes;
    const tokens = this.ctx.grants.issueTokens({ ...request, scopes });
    return override?.tokenType ? { ...tokens, token_type: override.tokenType } : tokens;
  }
}
