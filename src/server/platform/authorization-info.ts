/**
 * What Google says the user granted of the add-on's scopes (granular consent,
 * developers.google.com/apps-script/concepts/scopes): ScriptApp.getAuthorizationInfo(FULL, scopes).
 */

export const CONTAINER_UI_SCOPE = 'https://www.googleapis.com/auth/script.container.ui';

/** Google's AuthorizationInfo with getAuthorizedScopes, which the published typings lack. */
interface ScopedAuthorizationInfo extends GoogleAppsScript.Script.AuthorizationInfo {
  getAuthorizedScopes(): string[] | null;
}

type AuthorizationInfoFor = (
  authMode: GoogleAppsScript.Script.AuthMode,
  oAuthScopes: string[],
) => ScopedAuthorizationInfo;

export function authorizationInfo(scopes: string[]): ScopedAuthorizationInfo {
  // getAuthorizationInfo(authMode, oAuthScopes) is Google's; the published typings know one argument only.
  return (ScriptApp.getAuthorizationInfo as unknown as AuthorizationInfoFor)(ScriptApp.AuthMode.FULL, scopes);
}

/** The scopes of `scopes` the user has not granted (none when Google answers NOT_REQUIRED). */
export function missingGoogleScopes(scopes: string[]): string[] {
  const info = authorizationInfo(scopes);
  if (info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED) return [];
  const granted = info.getAuthorizedScopes() ?? [];
  return scopes.filter((scope) => granted.indexOf(scope) < 0);
}
