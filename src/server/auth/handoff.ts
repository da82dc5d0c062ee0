/**
 * The callback has no document (Google runs /usercallback for the add-on, not for a spreadsheet):
 * it exchanges the code into the user's own storage and leaves a handoff there, naming the
 * spreadsheet from its state token. The user's next execution with that document (the sidebar
 * polls getSidebarState; any run that needs the connection) adopts it under the document lock. A
 * busy lock leaves the handoff for the next call: nothing of the exchanged code is lost.
 */
import { adoptOwnerCopy } from '../platform/owner-copy';
import { readRecentTogether, realDocumentProperties } from '../platform/properties';
import { currentSpreadsheetId } from '../platform/context';
import { clipText } from '../platform/property-size';
import { CONNECTION_PROPERTY_KEY, handoffKey, LEGACY_TOKEN_PROPERTY_KEY, SHARED_ACCESS_TOKEN_KEY } from './constants';
import { writeConnectionRecord } from './connection-record';
import { settleDocumentConnection } from './copy-guard';
import { confirmStore, isOperatorDetail, markConnected, markOperatorProblem, recordAuthFailure } from './lifecycle';
import { documentLock, openSession } from './session';
import { currentUserEmail, publishSharedAccessToken } from './token-home';
import type { StoreRef } from './types';

export type Handoff =
  | { kind: 'connected'; store: StoreRef | null; scopes: string[]; at: number }
  | { kind: 'store_mismatch'; sheetsStore: StoreRef; otherStore: StoreRef; scopes: string[]; at: number }
  | { kind: 'auth_failure'; code: string; scopes: string[]; at: number };

/** How long the sidebar's adoption waits for a busy document before leaving it for the next poll. */
const ADOPT_LOCK_WAIT_MS = 2_000;

function clipStore(store: StoreRef): StoreRef {
  return { id: clipText(store.id, 100), name: clipText(store.name, 150) };
}

/** Callback side (no document): the result, for the spreadsheet named in the state token. */
export function leaveHandoff(spreadsheetId: string, given: Handoff): void {
  // Scopes come from the token response: bounded like every other text from the service.
  const handoff: Handoff = { ...given, scopes: given.scopes.slice(0, 20).map((scope) => clipText(scope, 64)) };
  const bounded: Handoff =
    handoff.kind === 'connected'
      ? { ...handoff, store: handoff.store ? clipStore(handoff.store) : null }
      : handoff.kind === 'store_mismatch'
        ? { ...handoff, sheetsStore: clipStore(handoff.sheetsStore), otherStore: clipStore(handoff.otherStore) }
        : { ...handoff, code: clipText(handoff.code, 64) };
  PropertiesService.getUserProperties().setProperty(handoffKey(spreadsheetId), JSON.stringify(bounded));
}

function readHandoff(spreadsheetId: string): Handoff | null {
  const raw = PropertiesService.getUserProperties().getProperty(handoffKey(spreadsheetId));
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Handoff;
    return value && typeof value === 'object' && typeof value.kind === 'string' ? value : null;
  } catch {
    return null;
  }
}

export type AdoptOutcome = 'none' | 'adopted' | 'busy';

/**
 * With the document: takes over a connection the callback handed off (and deletes a token an older
 * version kept in the document). Needs write access: never from a custom function.
 */
let adoptedThisExecution = false;

export function adoptPendingConnection(): AdoptOutcome {
  // Once per execution is enough (it is called before every token use); a busy lock tries again.
  if (adoptedThisExecution) return 'none';
  // The copy guard's and this module's document keys, and the status read next: one call, not three.
  readRecentTogether([CONNECTION_PROPERTY_KEY, SHARED_ACCESS_TOKEN_KEY, LEGACY_TOKEN_PROPERTY_KEY]);
  // A connection this spreadsheet carried from the one it was copied from goes first: never adopted, never used.
  settleDocumentConnection();
  const outcome = adoptOnce();
  if (outcome !== 'busy') adoptedThisExecution = true;
  return outcome;
}

function adoptOnce(): AdoptOutcome {
  const props = realDocumentProperties();
  const spreadsheetId = props ? currentSpreadsheetId() : null;
  if (!props || !spreadsheetId) return 'none';
  const pending = readHandoff(spreadsheetId);
  const legacy = pending ? null : props.getProperty(LEGACY_TOKEN_PROPERTY_KEY);
  if (!pending && !legacy) return 'none';
  const lock = documentLock();
  const held = lock.hasLock();
  if (!held && !lock.tryLock(ADOPT_LOCK_WAIT_MS)) return 'busy';
  try {
    if (pending) {
      // Another execution of this user may have adopted it while this one waited.
      const current = readHandoff(spreadsheetId);
      if (!current) return 'none';
      // What this user's documentless runs wrote is older than the connection just made (a broken
      // connection they recorded among it): folded in first, so the new connection is the last word.
      adoptOwnerCopy(spreadsheetId, props);
      apply(current);
      PropertiesService.getUserProperties().deleteProperty(handoffKey(spreadsheetId));
    } else if (legacy) {
      // A token an older version kept whole in the document (refresh token included) names no
      // spreadsheet, and a copy carries it as it is: nothing tells the original from a copy, so it
      // is never adopted. It is deleted, and whoever connected connects again.
      props.deleteProperty(LEGACY_TOKEN_PROPERTY_KEY);
    }
    return 'adopted';
  } finally {
    if (!held) lock.releaseLock();
  }
}

function apply(handoff: Handoff): void {
  const me = currentUserEmail() || null;
  if (handoff.kind === 'store_mismatch') {
    writeConnectionRecord({
      state: 'store_changed',
      store: handoff.sheetsStore,
      scopes: handoff.scopes,
      detail: 'store_differs_from_sheets',
      otherStore: handoff.otherStore,
      connectedBy: me,
    });
    return;
  }
  const token = openSession().service.getToken(true);
  if (!token) {
    // The code exchange itself failed for a reason only the operator fixes: say so (no token was stored).
    if (handoff.kind === 'auth_failure' && isOperatorDetail(handoff.code)) markOperatorProblem(handoff.code, me);
    // Otherwise the token it announced is gone (the user disconnected since): nothing to adopt.
    return;
  }
  markConnected(null, handoff.scopes, me);
  publishSharedAccessToken(token);
  if (handoff.kind === 'auth_failure') {
    if (isOperatorDetail(handoff.code)) markOperatorProblem(handoff.code);
    else recordAuthFailure(handoff.code);
    return;
  }
  if (handoff.store && !confirmStore(handoff.store)) openSession().service.reset();
}

/** Disconnect: a handoff not yet adopted must not bring the connection back. */
export function dropHandoff(): void {
  const spreadsheetId = currentSpreadsheetId();
  if (spreadsheetId) PropertiesService.getUserProperties().deleteProperty(handoffKey(spreadsheetId));
}
