import { DEFAULT_AUTHORIZE_PATH, DEFAULT_TOKEN_PATH, DISCOVERY_PATH } from './constants';

export interface AuthorizationEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

const CACHE_SECONDS = 6 * 60 * 60;

function originOf(url: string): string | null {
  const match = /^(https?:\/\/[^/?#]+)/i.exec(url);
  return match ? match[1].toLowerCase() : null;
}

/** Spec 5.2: {auth_url} is the same host as {base_url}; anything else is not trusted with the secret. */
function sameOrigin(url: unknown, apiBaseUrl: string): url is string {
  return typeof url === 'string' && originOf(url) !== null && originOf(url) === originOf(apiBaseUrl);
}

export function defaultEndpoints(apiBaseUrl: string): AuthorizationEndpoints {
  const origin = originOf(apiBaseUrl) ?? apiBaseUrl;
  return { authorizationEndpoint: origin + DEFAULT_AUTHORIZE_PATH, tokenEndpoint: origin + DEFAULT_TOKEN_PATH };
}

/** Reads the endpoints out of an RFC 8414 document; null when it does not name both on our origin. */
export function endpointsFromMetadata(metadata: unknown, apiBaseUrl: string): AuthorizationEndpoints | null {
  if (metadata === null || typeof metadata !== 'object') return null;
  const doc = metadata as Record<string, unknown>;
  const authorize = doc['authorization_endpoint'];
  const token = doc['token_endpoint'];
  if (!sameOrigin(authorize, apiBaseUrl) || !sameOrigin(token, apiBaseUrl)) return null;
  return { authorizationEndpoint: authorize, tokenEndpoint: token };
}

/**
 * The authorization and token URLs from {origin}/.well-known/oauth-authorization-server, cached in
 * the script cache (the same for every document of the deployment); the spec's paths when the
 * document cannot be read.
 */
export function authorizationEndpoints(apiBaseUrl: string): AuthorizationEndpoints {
  // Asked for by the library's service and by each token request: one cache read per execution.
  const known = readThisExecution.get(apiBaseUrl);
  if (known) return known;
  const endpoints = readEndpoints(apiBaseUrl);
  readThisExecution.set(apiBaseUrl, endpoints);
  return endpoints;
}

const readThisExecution = new Map<string, AuthorizationEndpoints>();

function readEndpoints(apiBaseUrl: string): AuthorizationEndpoints {
  const cache = CacheService.getScriptCache();
  const cacheKey = `ma.as-metadata.${originOf(apiBaseUrl) ?? apiBaseUrl}`.slice(0, 250);
  const cached = cache ? cache.get(cacheKey) : null;
  if (cached) {
    const fromCache = endpointsFromMetadata(safeParse(cached), apiBaseUrl);
    if (fromCache) return fromCache;
  }
  const discovered = fetchMetadata(apiBaseUrl);
  if (discovered) {
    if (cache)
      cache.put(
        cacheKey,
        JSON.stringify({
          authorization_endpoint: discovered.authorizationEndpoint,
          token_endpoint: discovered.tokenEndpoint,
        }),
        CACHE_SECONDS,
      );
    return discovered;
  }
  return defaultEndpoints(apiBaseUrl);
}

function fetchMetadata(apiBaseUrl: string): AuthorizationEndpoints | null {
  const origin = originOf(apiBaseUrl);
  if (!origin) return null;
  try {
    const response = UrlFetchApp.fetch(origin + DISCOVERY_PATH, {
      method: 'get',
      muteHttpExceptions: true,
      headers: { Accept: 'application/json' },
    });
    if (response.getResponseCode() !== 200) return null;
    return endpointsFromMetadata(safeParse(response.getContentText()), apiBaseUrl);
  } catch {
    // Network failure: the spec's fixed paths still work.
    return null;
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
