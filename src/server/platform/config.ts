/**
 * Deployment configuration: where the API lives and which OAuth client this deployment is.
 * Whoever deploys sets these once in script properties (docs/user-guide/connecting-a-store.md,
 * "Connecting a store"); they are never in code or in the sheet. Locally the harness sets them for
 * the emulator.
 */

export const CONFIG_KEYS = {
  apiBaseUrl: 'MA_API_BASE_URL',
  clientId: 'MA_CLIENT_ID',
  clientSecret: 'MA_CLIENT_SECRET',
  redirectUri: 'MA_REDIRECT_URI',
} as const;

export interface DeploymentConfig {
  /** Origin (and optional path prefix) of the API, without a trailing slash, e.g. https://api.example.com */
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** null → the library's default https://script.google.com/macros/d/{SCRIPT_ID}/usercallback */
  redirectUri: string | null;
}

/** The deployment is missing settings only its operator can provide. */
export class NotConfiguredError extends Error {
  readonly code = 'not_configured';
  readonly missing: string[];
  readonly userMessage: string;

  constructor(missing: string[], problem?: string) {
    super(
      `Merchant Analytics is not set up for this deployment: ${problem ?? `missing script properties ${missing.join(', ')}`}.`,
    );
    this.name = 'NotConfiguredError';
    this.missing = missing;
    this.userMessage =
      'Merchant Analytics has not been set up by whoever installed it for your organisation. Please ask them to finish the set-up (connection settings are missing).';
  }
}

/**
 * The script properties, read once per execution (each execution starts with fresh module state):
 * they change only when the deployment is configured, and every read counts against the user's
 * 50,000 Properties reads and writes a day (developers.google.com/apps-script/guides/services/quotas).
 */
let scriptSettings: Record<string, string> | null = null;

function scriptSettingsOnce(): Record<string, string> {
  return (scriptSettings ??= PropertiesService.getScriptProperties().getProperties());
}

/** Reads and checks the deployment configuration; throws NotConfiguredError naming what is missing. */
export function getDeploymentConfig(): DeploymentConfig {
  const props = scriptSettingsOnce();
  const read = (key: string): string => (props[key] ?? '').trim();
  const missing = [CONFIG_KEYS.apiBaseUrl, CONFIG_KEYS.clientId, CONFIG_KEYS.clientSecret].filter(
    (key) => read(key) === '',
  );
  if (missing.length > 0) throw new NotConfiguredError(missing);
  // The API root with or without its /api/v1 suffix or a trailing slash: every caller appends paths to the root.
  const apiBaseUrl = read(CONFIG_KEYS.apiBaseUrl)
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/i, '');
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(apiBaseUrl)) {
    throw new NotConfiguredError([CONFIG_KEYS.apiBaseUrl], `${CONFIG_KEYS.apiBaseUrl} is not an http(s) address`);
  }
  const redirectUri = read(CONFIG_KEYS.redirectUri);
  return {
    apiBaseUrl,
    clientId: read(CONFIG_KEYS.clientId),
    clientSecret: read(CONFIG_KEYS.clientSecret),
    redirectUri: redirectUri === '' ? null : redirectUri,
  };
}

/** True when every required setting is present and well formed. */
export function isConfigured(): boolean {
  try {
    getDeploymentConfig();
    return true;
  } catch (e) {
    if (e instanceof NotConfiguredError) return false;
    throw e;
  }
}
