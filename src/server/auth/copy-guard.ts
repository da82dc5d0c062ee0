/**
 * File → Make a copy may carry the add-on's document properties into the copy (Google's
 * PropertiesService page does not say; the stricter reading is that it does), and with them the
 * connection record and the shared access token: whoever made the copy would read the merchant's
 * store until that token expires. Both are bound to the spreadsheet they were written for
 * (the spreadsheet binding); an execution with the document that finds them written for another
 * spreadsheet deletes them and leaves a note, so the sidebar, formulas and scheduled runs say
 * "Not connected: this is a copy …" until someone connects the copy with their own account. The
 * refresh token was never in the document: it is in the connector's user properties under the
 * ORIGINAL's id, which the copy, having a new id, never reads.
 *
 * A record written before records were bound (no spreadsheet id) is bound to this spreadsheet once,
 * under the document lock, by its connector's execution with the document, and only when that
 * user's properties hold the refresh token for THIS spreadsheet's id. That is safe: that token is
 * stored under the id of the spreadsheet whose Connect the user completed (the state token names
 * it), and a copy has a new id that no connection was ever made for, so only the spreadsheet that
 * wrote the record can pass; in a copy the unbound record is never bound, and its unbound shared
 * token is never used (the token home).
 */
import { isConfigured } from '../platform/config';
import { currentSpreadsheetId } from '../platform/context';
import { documentProperties, realDocumentProperties } from '../platform/properties';
import { CONNECTION_PROPERTY_KEY, COPIED_CONNECTION_PROPERTY_KEY, SHARED_ACCESS_TOKEN_KEY } from './constants';
import { bindConnectionRecord, readStoredConnectionRecord } from './connection-record';
import { documentLock, hasRefreshToken, openSession } from './session';
import { bindingOf } from './spreadsheet-binding';
import { currentUserEmail } from './token-home';

/** How long a sidebar or run waits for a busy document before leaving this to its next execution. */
const LOCK_WAIT_MS = 2_000;

/**
 * With no record of its own: true when this spreadsheet holds (or held, and refused) the shared
 * token of the spreadsheet it was copied from. Reads only: formulas ask it too.
 */
export function copiedConnectionNoted(): boolean {
  const props = documentProperties();
  if (bindingOf(spreadsheetIdIn(props.getProperty(SHARED_ACCESS_TOKEN_KEY))) === 'copy') return true;
  return bindingOf(spreadsheetIdIn(props.getProperty(COPIED_CONNECTION_PROPERTY_KEY))) === 'here';
}

/**
 * With the document and write access (sidebar, menu, a run with the document), before any token
 * is used: deletes a copied connection, or binds an older version's record. Never from a formula.
 */
export function settleDocumentConnection(): void {
  const props = realDocumentProperties();
  const spreadsheetId = props ? currentSpreadsheetId() : null;
  if (!props || !spreadsheetId) return;
  const stored = readStoredConnectionRecord();
  const sharedBinding = bindingOf(spreadsheetIdIn(props.getProperty(SHARED_ACCESS_TOKEN_KEY)));
  const copied = stored?.binding === 'copy' || sharedBinding === 'copy';
  const bindable = stored?.binding === 'unbound' && ownsConnectionHere(stored.record.connectedBy ?? null);
  if (!copied && !bindable) return;
  const lock = documentLock();
  const held = lock.hasLock();
  if (!held && !lock.tryLock(LOCK_WAIT_MS)) return;
  try {
    // Read again under the lock: another execution may have settled it (or connected) meanwhile.
    const now = readStoredConnectionRecord();
    const shared = bindingOf(spreadsheetIdIn(props.getProperty(SHARED_ACCESS_TOKEN_KEY)));
    if (now?.binding === 'copy' || shared === 'copy') {
      if (shared === 'copy') props.deleteProperty(SHARED_ACCESS_TOKEN_KEY);
      if (now?.binding !== 'here') {
        props.deleteProperty(CONNECTION_PROPERTY_KEY);
        props.setProperty(
          COPIED_CONNECTION_PROPERTY_KEY,
          JSON.stringify({ spreadsheetId, at: new Date().toISOString() }),
        );
      }
      console.warn('[connection] this spreadsheet is a copy: the connection it carried was deleted, unused');
    } else if (now?.binding === 'unbound' && ownsConnectionHere(now.record.connectedBy ?? null)) {
      bindConnectionRecord(now.record);
    }
  } finally {
    if (!held) lock.releaseLock();
  }
}

/** This user connected THIS spreadsheet: the record names them and their refresh token for its id exists. */
function ownsConnectionHere(connectedBy: string | null): boolean {
  if (!connectedBy || connectedBy !== currentUserEmail() || !isConfigured()) return false;
  return hasRefreshToken(openSession().service.getToken(true));
}

function spreadsheetIdIn(raw: string | null): unknown {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { spreadsheetId?: unknown } | null;
    return value && typeof value === 'object' ? value.spreadsheetId : null;
  } catch {
    return null;
  }
}
