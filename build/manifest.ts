/** dist/appsscript.json: the manifest with urlFetchWhitelist derived from the configured API base URL. */
export interface Manifest {
  timeZone: string;
  runtimeVersion: string;
  oauthScopes: string[];
  urlFetchWhitelist?: string[];
  [key: string]: unknown;
}

export function normaliseBaseUrl(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (!/^https:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(trimmed)) {
    throw new Error(`API base URL must be an https URL without query or fragment, got "${raw}"`);
  }
  return trimmed;
}

/**
 * Apps Script matches whitelist entries as prefixes, and requires a path: the origin plus "/". The
 * origin and not the base URL: a base given as https://host/api/v1 must still let the add-on reach
 * the token endpoint (/api/auth/oauth2/token) and discovery (/.well-known/…), spec 5.2, which the
 * add-on fetches on the API's own origin only.
 */
export function whitelistFor(apiBaseUrl: string): string[] {
  return [`${new URL(normaliseBaseUrl(apiBaseUrl)).origin}/`];
}

export function buildManifest(source: Manifest, apiBaseUrl: string): Manifest {
  return { ...source, urlFetchWhitelist: whitelistFor(apiBaseUrl) };
}
