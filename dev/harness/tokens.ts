/**
 * Where the add-on keeps a connection (docs/architecture.md, "Where the connection lives"): the connecting
 * user's token in THEIR user properties under the OAuth2 library's key for this spreadsheet, the
 * access token (only) in the document properties for formulas and other editors.
 */
import type { GasRuntime, PropertyStore } from '../gas-runtime/index';

export function connectionTokenKey(runtime: GasRuntime): string {
  return `oauth2.merchant-analytics.${runtime.workbook.id}`;
}

/** A user's property store (the runtime's default user when `user` is not given). */
export function userStore(runtime: GasRuntime, user?: string): PropertyStore | undefined {
  return user === undefined ? runtime.properties.user : runtime.properties.users[user];
}

/** The library's stored token of the user's connection to this spreadsheet (JSON), or null. */
export function connectionToken<T = Record<string, unknown>>(runtime: GasRuntime, user?: string): T | null {
  const raw = userStore(runtime, user)?.get(connectionTokenKey(runtime));
  return raw ? (JSON.parse(raw) as T) : null;
}

/**
 * Installs a token in the library's format as the default user's connection, the way the OAuth
 * callback leaves one: in the user's own store for this spreadsheet, with a handoff the next
 * execution with the document adopts (the handoff). Disconnect first so no cached copy of a
 * previous token remains.
 */
export function installConnectionToken(runtime: GasRuntime, token: Record<string, unknown>): void {
  const user = runtime.properties.user;
  user.set(connectionTokenKey(runtime), JSON.stringify(token));
  const scopes = typeof token.scope === 'string' ? token.scope.split(' ').filter(Boolean) : [];
  user.set(
    `ma.connectHandoff.${runtime.workbook.id}`,
    JSON.stringify({ kind: 'connected', store: null, scopes, at: runtime.clock.now() }),
  );
}

/** The document's copy of the access token (for formulas and other editors), or null. */
export function sharedAccessToken(runtime: GasRuntime): { access_token: string; expiresAt: number | null } | null {
  const raw = runtime.properties.document.get('ma.accessToken');
  return raw ? (JSON.parse(raw) as { access_token: string; expiresAt: number | null }) : null;
}
