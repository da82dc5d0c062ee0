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

/** Apps Script matches whitelist entries as prefixes, and requires a path: the origin plus "/". */
export function whitelistFor(apiBaseUrl: string): string[] {
  return [`${normaliseBaseUrl(apiBaseUrl)}/`];
}

export function buildManifest(source: Manifest, apiBaseUrl: string): Manifest {
  return { ...source, urlFetchWhitelist: whitelistFor(apiBaseUrl) };
}
