/**
 * The "Where orders go" card: the sheets (the default) or the user's BigQuery dataset, what the
 * choice means, the permission BigQuery needs, and the move offered when the sheets fill up.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */

/** What setOrdersDestination takes and answers (the saved choice). */
export type OrdersDestinationRequest = { kind: 'sheets' } | { kind: 'bigquery'; projectId: string; datasetId: string };

export interface DestinationView {
  chosen: OrdersDestinationRequest;
  /**
   * BigQuery is chosen and Google has not given the add-on the permission it needs there (granular
   * consent): the sync does not run until it is granted with Google's link; null otherwise.
   */
  permissionMissing: { authorizationUrl: string | null } | null;
  /** The sheets are near Google's cell limit: the move to BigQuery offered, with the figures; null otherwise. */
  offer: string | null;
  /** A move of the sheets' orders into BigQuery under way: how far it has come; null (or absent) when none is. */
  move?: string | null;
}
