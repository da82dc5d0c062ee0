import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuthStats } from './auth-stats';
import { checkAuthorizeRequest, redirectWith } from './authorize-request';
import { checkBearer } from './bearer';
import { ConsentFlow } from './consent';
import { renderErrorPage } from './consent-page';
import { AuthControl } from './control';
import { authorizationServerMetadata, protectedResourceMetadata, resourceMetadataUrl } from './discovery';
import { GrantStore } from './grant-store';
import { PkceLedger } from './pkce-ledger';
import { parseJsonObject, sendApiError, sendHtml, sendJson, sendRedirect } from './http-io';
import { TokenAnswerOverrides } from './token-answer';
import { TokenEndpoint } from './token-endpoint';
import {
  AS_METADATA_PATH,
  AUTHORIZE_PATH,
  CONSENT_PATH,
  DEFAULT_LIFETIMES,
  RESOURCE_METADATA_PATH,
  TOKEN_PATH,
  type AuthDeps,
  type BearerResult,
  type RegisteredClient,
  type TokenLifetimes,
} from './types';

export type { AuthDeps, BearerResult, StoreSummary, TokenLifetimes, TokenResponse } from './types';
export { DEMO_MERCHANT } from './consent';
export { KNOWN_SCOPES } from './scopes';

/** The emulator's OAuth 2.1 authorization server (spec 5) and the Bearer check of the API. */
export class AuthServer {
  private readonly lifetimes: TokenLifetimes;
  private readonly grants: GrantStore;
  private readonly client: RegisteredClient;
  private readonly statsCounters = new AuthStats();
  private readonly pkce = new PkceLedger();
  private readonly tokenAnswers = new TokenAnswerOverrides();
  private readonly consent: ConsentFlow;
  private readonly tokenEndpoint: TokenEndpoint;
  private readonly control: AuthControl;

  constructor(private readonly deps: AuthDeps) {
    this.lifetimes = { ...DEFAULT_LIFETIMES, ...deps.lifetimes };
    this.grants = new GrantStore(deps.clock, this.lifetimes);
    this.client = {
      clientId: deps.clientId,
      clientSecret: deps.clientSecret,
      appName: deps.appName,
      redirectUris: [...deps.redirectUris],
      disabled: false,
    };
    const client = (): RegisteredClient => this.client;
    this.consent = new ConsentFlow({
      clock: deps.clock,
      consentSeconds: () => this.lifetimes.consentSeconds,
      grants: this.grants,
      client,
      stores: deps.stores,
    });
    this.tokenEndpoint = new TokenEndpoint({
      clock: deps.clock,
      grants: this.grants,
      client,
      baseUrl: deps.baseUrl,
      stats: this.statsCounters,
      pkce: this.pkce,
      answers: this.tokenAnswers,
    });
    this.control = new AuthControl({
      grants: this.grants,
      client,
      stores: deps.stores,
      defaultStoreId: deps.defaultStoreId,
    });
  }

  /**
   * Serves discovery, authorize/consent/token and the auth control routes; false for any other path.
   * truncateTokenAnswer (an injected fault) cuts a successful token answer in half after the exchange.
   */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
    options: { truncateTokenAnswer?: boolean } = {},
  ): Promise<boolean> {
    const method = req.method ?? 'GET';
    switch (url.pathname) {
      case AS_METADATA_PATH:
        return this.getOnly(method, res, () =>
          sendJson(res, 200, authorizationServerMetadata(this.deps.baseUrl()), { 'Cache-Control': 'max-age=3600' }),
        );
      case RESOURCE_METADATA_PATH:
        return this.getOnly(method, res, () =>
          sendJson(res, 200, protectedResourceMetadata(this.deps.baseUrl()), { 'Cache-Control': 'max-age=3600' }),
        );
      case AUTHORIZE_PATH:
        return this.getOnly(method, res, () => this.authorize(res, url));
      case CONSENT_PATH:
        if (method !== 'POST') return this.methodNotAllowed(res, 'POST');
        this.consent.submit(req, res, body);
        return true;
      case TOKEN_PATH:
        this.tokenEndpoint.handle(req, res, body, options.truncateTokenAnswer === true);
        return true;
      case '/_emulator/grants':
        return this.getOnly(method, res, () => this.control.listGrants(res));
      case '/_emulator/issued-tokens':
        return this.getOnly(method, res, () => this.control.issuedTokens(res));
      case '/_emulator/pkce':
        return this.getOnly(method, res, () => sendJson(res, 200, { redemptions: this.pkce.all() }));
      case '/_emulator/grants/revoke':
        return this.postJson(method, res, body, (json) => this.control.revoke(res, json));
      case '/_emulator/grants/switch-store':
        return this.postJson(method, res, body, (json) => this.control.switchStore(res, json));
      case '/_emulator/client/disable':
        return this.postJson(method, res, body, (json) => this.control.disableClient(res, json, this.client));
      case '/_emulator/redirect-uris':
        return this.postJson(method, res, body, (json) => this.control.addRedirectUris(res, json, this.client));
      case '/_emulator/client':
        return this.getOnly(method, res, () => this.control.describeClient(res, this.client));
      case '/_emulator/tokens':
        return this.postJson(method, res, body, (json) => this.control.mintTokens(res, json));
      case '/_emulator/token-answers':
        if (method === 'GET') return this.getOnly(method, res, () => sendJson(res, 200, this.tokenAnswers.describe()));
        return this.postJson(method, res, body, (json) => {
          const problem = this.tokenAnswers.set(json);
          if (problem) return sendApiError(res, 400, 'invalid_parameter', problem);
          sendJson(res, 200, this.tokenAnswers.describe());
        });
      default:
        return false;
    }
  }

  /** Bearer check for an /api/v1 request; requiredScope null = any valid token. */
  authenticate(req: IncomingMessage, url: URL, requiredScope: string | null): BearerResult {
    const result = checkBearer(
      { clock: this.deps.clock, grants: this.grants, client: () => this.client },
      req,
      url,
      requiredScope,
    );
    if (!result.ok) this.statsCounters.bearerFailure(result.code);
    return result;
  }

  /**
   * Value for WWW-Authenticate on every 401, pointing at the protected-resource metadata (RFC 9728 5.1).
   * Pass the failure to add RFC 6750's error attribute.
   */
  wwwAuthenticate(failure?: { code: string }): string {
    const metadata = `resource_metadata="${resourceMetadataUrl(this.deps.baseUrl())}"`;
    if (!failure) return `Bearer ${metadata}`;
    const error =
      failure.code === 'missing_token'
        ? ''
        : `, error="${failure.code === 'insufficient_scope' ? 'insufficient_scope' : 'invalid_token'}"`;
    return `Bearer ${metadata}${error}`;
  }

  /** Forgets every connection, code and token; re-enables the client; optionally replaces the redirect URIs. */
  reset(options: { redirectUris?: string[] }): void {
    this.grants.clear();
    this.consent.clear();
    this.statsCounters.clear();
    this.pkce.clear();
    this.tokenAnswers.clear();
    this.client.disabled = false;
    this.client.redirectUris = [...(options.redirectUris ?? this.deps.redirectUris)];
  }

  /** Counters for /_emulator/stats. */
  stats(): Record<string, unknown> {
    return this.statsCounters.snapshot();
  }

  private authorize(res: ServerResponse, url: URL): void {
    const check = checkAuthorizeRequest(url.searchParams, this.client, this.deps.baseUrl());
    if (check.kind === 'ok') {
      this.statsCounters.authorize('consent_shown');
      return this.consent.show(res, check.request);
    }
    if (check.kind === 'page_error') {
      this.statsCounters.authorize('error_page');
      return sendHtml(res, 400, renderErrorPage('This connection request cannot be completed', check.message));
    }
    this.statsCounters.authorize(check.error);
    sendRedirect(
      res,
      redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }),
    );
  }

  private getOnly(method: string, res: ServerResponse, serve: () => void): true {
    if (method !== 'GET' && method !== 'HEAD') return this.methodNotAllowed(res, 'GET');
    serve();
    return true;
  }

  private postJson(
    method: string,
    res: ServerResponse,
    body: Buffer,
    serve: (json: Record<string, unknown>) => void,
  ): true {
    if (method !== 'POST') return this.methodNotAllowed(res, 'POST');
    const parsed = parseJsonObject(body);
    if (!parsed.ok) {
      sendApiError(res, 400, 'invalid_parameter', parsed.message);
      return true;
    }
    serve(parsed.value);
    return true;
  }

  private methodNotAllowed(res: ServerResponse, allow: string): true {
    sendJson(
      res,
      405,
      { success: false, error: { code: 'method_not_allowed', message: `use ${allow}` } },
      { Allow: allow },
    );
    return true;
  }
}
