import { isConfigured } from '../platform/config';
import { REQUESTED_SCOPES } from './constants';
import { copiedConnectionNoted } from './copy-guard';
import {
  clearConnectionRecord,
  readConnectionRecord,
  readStoredConnectionRecord,
  storeTag,
  storeTagName,
  writeConnectionRecord,
} from './connection-record';
import { messageFor } from './messages';
import type {
  BrokenReason,
  ConnectionDetail,
  ConnectionRecord,
  ConnectionStatus,
  OperatorDetail,
  StoreRef,
} from './types';

const OPERATOR_DETAILS: readonly OperatorDetail[] = [
  'client_not_authorized',
  'token_endpoint_redirected',
  'unsupported_token_type',
];

const BROKEN_REASONS: readonly BrokenReason[] = [
  'revoked',
  'store_changed',
  'invalid_claims',
  'missing_scope',
  'lapsed',
];
const DETAILS: readonly ConnectionDetail[] = [
  'moved_to_other_store',
  'store_differs_from_sheets',
  ...OPERATOR_DETAILS,
  'insufficient_scope',
  'no_plan',
  'refresh_rejected',
  'renewal_interrupted',
  'renewal_unanswered',
  'unused_90_days',
  'access_ended',
];

/** The connection as the sidebar and the Sync log show it. Reads properties only; no request. */
export function connectionStatus(): ConnectionStatus {
  if (!isConfigured()) return statusOf('not_configured', null);
  return recordedConnectionStatus();
}

/**
 * The connection as the document records it, the deployment's settings unread: for a formula, whose
 * answer may come from the document cache; one that fetches reads them then (and says when they are missing).
 */
export function recordedConnectionStatus(): ConnectionStatus {
  const stored = readStoredConnectionRecord();
  if (stored && stored.binding !== 'copy') return statusOf(stored.record.state, stored.record);
  if (stored || copiedConnectionNoted()) return copyStatus();
  return statusOf('not_connected', null);
}

/** A copy of a connected spreadsheet: not connected, and saying why (the copy guard). */
function copyStatus(): ConnectionStatus {
  const detail: ConnectionDetail = 'copy_of_connected_spreadsheet';
  const { message, action } = messageFor('not_connected', null, detail);
  return { state: 'not_connected', store: null, scopes: [], detail, message, action, since: null, connectedBy: null };
}

function statusOf(state: ConnectionStatus['state'], record: ConnectionRecord | null): ConnectionStatus {
  const store = record ? record.store : null;
  const detail = record ? record.detail : null;
  const { message, action } = messageFor(state, store, detail, record ? record.otherStore : null);
  return {
    state,
    store,
    scopes: record ? record.scopes : [],
    detail,
    message,
    action,
    since: record ? record.since : null,
    connectedBy: record ? (record.connectedBy ?? null) : null,
  };
}

/** Records that the connection works and reads `store` with `scopes` (and, on connecting, whose it is). */
export function markConnected(store: StoreRef | null, scopes: string[], connectedBy?: string | null): void {
  writeConnectionRecord({
    state: 'connected',
    store,
    scopes,
    detail: null,
    otherStore: null,
    ...(connectedBy !== undefined ? { connectedBy } : {}),
  });
}

/**
 * The connection stopped working for a reason only a reconnect fixes. Tokens are kept until the
 * user reconnects or disconnects (so nothing else changes); the sheets are not touched.
 */
export function markConnectionBroken(reason: BrokenReason, detail?: string, otherStore?: StoreRef): ConnectionStatus {
  if (!BROKEN_REASONS.includes(reason)) throw new Error(`markConnectionBroken: unknown reason ${String(reason)}.`);
  const previous = readConnectionRecord();
  const record = writeConnectionRecord({
    state: reason,
    store: previous ? previous.store : null,
    scopes: previous ? previous.scopes : [],
    detail: DETAILS.includes(detail as ConnectionDetail) ? (detail as ConnectionDetail) : null,
    otherStore: otherStore ?? null,
  });
  return statusOf(record.state, record);
}

/**
 * A refresh granted fewer scopes than the add-on uses: missing_scope, recording which of the
 * add-on's scopes the grant still has (only those: the server's text is not kept).
 */
export function markScopesNarrowed(granted: readonly string[]): ConnectionStatus {
  const previous = readConnectionRecord();
  const scopes = REQUESTED_SCOPES.filter((scope) => granted.includes(scope));
  const record = writeConnectionRecord({
    state: 'missing_scope',
    store: previous ? previous.store : null,
    scopes,
    detail: 'insufficient_scope',
    otherStore: null,
  });
  return statusOf(record.state, record);
}

export function isOperatorDetail(code: string): code is OperatorDetail {
  return (OPERATOR_DETAILS as readonly string[]).includes(code);
}

/** Only the deployment's operator can fix it (OperatorDetail); connectedBy is given when no connection was made yet. */
export function markOperatorProblem(detail: OperatorDetail, connectedBy?: string | null): ConnectionStatus {
  const previous = readConnectionRecord();
  const record = writeConnectionRecord({
    state: 'operator_problem',
    store: previous ? previous.store : null,
    scopes: previous ? previous.scopes : [],
    detail,
    otherStore: null,
    ...(connectedBy !== undefined ? { connectedBy } : {}),
  });
  return statusOf(record.state, record);
}

/**
 * Applies an API error code (spec 5.8) to the connection state and returns the new status, or
 * null when the code says nothing about the connection. invalid_token is not here: it means
 * "refresh once", which the token source does.
 */
export function recordAuthFailure(code: string): ConnectionStatus | null {
  switch (code) {
    case 'grant_revoked':
      return markConnectionBroken('revoked');
    case 'invalid_token_claims':
      return markConnectionBroken('invalid_claims');
    case 'client_not_authorized':
      return markOperatorProblem(code);
    case 'insufficient_scope':
      // The merchant approved fewer permissions than the add-on asks for: a reconnect that grants
      // them fixes it (spec 5.8), not the operator.
      return markConnectionBroken('missing_scope', 'insufficient_scope');
    default:
      return null;
  }
}

/**
 * A successful account read: the connection works. If the document's sheets belong to another
 * store, the connection is marked store_changed and false is returned — never a silent mix.
 */
export function confirmStore(store: StoreRef): boolean {
  const tag = storeTag();
  const stored = readStoredConnectionRecord();
  const previous = stored && stored.binding !== 'copy' ? stored.record : null;
  if (tag !== null && tag !== store.id) {
    const tagged = { id: tag, name: storeTagName() ?? tag };
    writeConnectionRecord({
      state: 'store_changed',
      store: tagged,
      scopes: previous ? previous.scopes : [],
      detail: 'store_differs_from_sheets',
      otherStore: store,
    });
    return false;
  }
  // Every run confirms the store: an unchanged record is not written again (a write, the copied
  // note's delete and the sidebar stamp's two drops each run), and its `since` stays when it began.
  if (stored?.binding === 'here' && connectedTo(previous, store)) return true;
  markConnected(store, previous ? previous.scopes : []);
  return true;
}

/** The record already says connected to this store (same id and name), with nothing else noted. */
function connectedTo(record: ConnectionRecord | null, store: StoreRef): boolean {
  return (
    record !== null &&
    record.state === 'connected' &&
    record.store !== null &&
    record.store.id === store.id &&
    record.store.name === store.name &&
    record.detail === null &&
    record.otherStore === null
  );
}

export function forgetConnection(): void {
  clearConnectionRecord();
}
