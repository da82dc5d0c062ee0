import type { ConnectionStateName, UserAction } from '../../contract/sidebar';

export type { ConnectionStateName };

/** Why a connection stopped working; markConnectionBroken's public reasons plus operator problems. */
export type BrokenReason = 'revoked' | 'store_changed' | 'invalid_claims' | 'missing_scope' | 'lapsed';

/** Why only whoever set up the add-on can fix the connection (state operator_problem). */
export type OperatorDetail = 'client_not_authorized' | 'token_endpoint_redirected' | 'unsupported_token_type';

/** The finer cause behind a state, for the message and for support. */
export type ConnectionDetail =
  | 'moved_to_other_store'
  | 'store_differs_from_sheets'
  | OperatorDetail
  | 'insufficient_scope'
  | 'no_plan'
  /** Refused, and the stored token does not say when it was issued (90 days of disuse cannot be told apart). */
  | 'refresh_rejected'
  /** Refused after a renewal whose answer was never saved (the execution ended): the exchange revoked it. */
  | 'renewal_interrupted'
  /** Refused after a renewal whose answer could not be read (whether the endpoint acted is unknown). */
  | 'renewal_unanswered'
  /** Refused after 90 days without use (spec 3.2). */
  | 'unused_90_days'
  /** Refused although used within 90 days: ended or replaced on Merchant Analytics' side. */
  | 'access_ended'
  /** The document's connection was written for the spreadsheet this one was copied from. */
  | 'copy_of_connected_spreadsheet';

export interface StoreRef {
  id: string;
  name: string;
}

/** What the document remembers about its connection (document property ma.connection). */
export interface ConnectionRecord {
  state: 'connected' | BrokenReason | 'operator_problem';
  store: StoreRef | null;
  /** Granted scopes from the token response. */
  scopes: string[];
  detail: ConnectionDetail | null;
  /** Store picked at a refused reconnect (store_differs_from_sheets), to name it in the message. */
  otherStore: StoreRef | null;
  /** ISO time of the last state change. */
  since: string;
  /**
   * The Google user whose connection this is (their user properties hold the refresh token); null
   * when not known (recorded before connections moved to the user). Shown to every editor.
   */
  connectedBy?: string | null;
  /**
   * The spreadsheet the record was written for (a copy carries its original's document
   * properties); null when written by a version before records were bound (the copy guard).
   */
  spreadsheetId?: string | null;
}

/** What connectionStatus() returns: JSON-safe, ready for the sidebar and the Sync log. */
export interface ConnectionStatus {
  state: ConnectionStateName;
  store: StoreRef | null;
  scopes: string[];
  detail: ConnectionDetail | null;
  /** A sentence a finance person understands. */
  message: string;
  /** What to do next; null when the connection works. */
  action: UserAction | null;
  since: string | null;
  /** Whose connection it is (e-mail), when known. */
  connectedBy: string | null;
}
