/**
 * The BigQuery destination's permission. Under granular consent (developers.google.com/apps-script/
 * concepts/scopes, "Handle granular OAuth permissions") a user may withhold the bigquery scope while
 * granting the rest; a spreadsheet whose orders go to BigQuery then cannot sync them. The sidebar
 * shows it with Google's link (the same banner as every missing scope), and a run stops before its
 * first order with what to do. A spreadsheet whose orders stay in the sheets never asks.
 */
import { BIGQUERY_DESTINATION_SCOPES, missingGoogleScopes, purposesText } from '../auth/google-consent';
import { MissingPermissionError } from '../sync/missing-permission';
import type { Destination } from './destination-setting';

/** The scopes a sync into `destination` needs besides the sync's own. */
export function destinationScopes(destination: Destination): string[] {
  return destination.kind === 'bigquery' ? BIGQUERY_DESTINATION_SCOPES : [];
}

export function missingPermissionMessage(missing: string[]): string {
  return (
    `The sync did not run: your orders go to BigQuery, and Google has not given the add-on your permission to ${purposesText(missing)}. ` +
    'Grant it with the link at the top of the add-on’s sidebar (Extensions → Merchant Analytics → Open sidebar), then Sync now; ' +
    'or choose Sheets under “Where orders go”. Nothing was written.'
  );
}

/** Before a run writes to BigQuery: throws the stop when Google has not given the add-on the permission. */
export function requireDestinationPermission(destination: Destination): void {
  const scopes = destinationScopes(destination);
  if (scopes.length === 0) return;
  const missing = missingGoogleScopes(scopes);
  if (missing.length > 0) throw new MissingPermissionError(missing, missingPermissionMessage(missing));
}
