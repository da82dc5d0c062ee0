/**
 * An execution whose user withheld userinfo.email (granular consent): Session gives no e-mail, so
 * the add-on cannot tell whether the connection on record (which names the Google account that
 * made it) is this user's. It must not claim the connection is someone else's: it says that it
 * cannot tell, and how to grant the permission that lets it.
 */
import { ConnectionError } from './errors';
import { grantStep, missingGoogleScopes, SIDEBAR_SCOPES, USERINFO_EMAIL_SCOPE } from './google-consent';
import { currentUserEmail } from './token-home';
import type { ConnectionRecord } from './types';

/** True when the record names who connected but Google does not say who this user is. */
export function cannotTellConnector(record: ConnectionRecord | null): boolean {
  return !!record && !!record.connectedBy && currentUserEmail() === '';
}

/** What the add-on cannot do for a user it cannot tell from the connector. */
const CONSEQUENCE = {
  renew: 'so it cannot renew the connection’s access, which has run out',
  disconnect: 'and only the account that made the connection may disconnect it',
  schedule: 'and only the account that made the connection, or set the automatic sync, may change the automatic sync',
};

/** The add-on cannot tell whether the connection is this user's, so it cannot `act`; how to let it. */
export function unknownGoogleAccount(connectedBy: string, act: keyof typeof CONSEQUENCE = 'renew'): ConnectionError {
  const missing = [USERINFO_EMAIL_SCOPE, ...missingGoogleScopes(SIDEBAR_SCOPES)];
  return new ConnectionError(
    'google_account_unknown',
    `Merchant Analytics cannot tell whether this spreadsheet's connection (made by ${connectedBy}) is yours: ` +
      `Google has not given the add-on your permission to know which Google account you use, ${CONSEQUENCE[act]}. ` +
      `${grantStep(missing)}; then try again.`,
    'refresh',
  );
}
