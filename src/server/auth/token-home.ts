/**
 * Where the tokens live (docs/architecture.md, "Where the connection lives"): the refresh token with the user
 * who connected (their user properties, per spreadsheet: the OAuth2 service); the document holds a copy
 * of the short-lived access token only, for formulas and for the other editors, written by the
 * connecting user's executions that have the document.
 */
import { realDocumentProperties, documentProperties } from '../platform/properties';
import { SHARED_ACCESS_TOKEN_KEY } from './constants';
import type { ConnectionRecord } from './types';
import { accessTokenOf, expiresAtMs, hasRefreshToken, openSession } from './session';
import { bindingId, bindingOf } from './spreadsheet-binding';

/** The Google user this execution runs as ('' when Google does not say). */
let userEmail: string | null = null;

export function currentUserEmail(): string {
  if (userEmail !== null) return userEmail;
  try {
    userEmail = Session.getEffectiveUser().getEmail() || Session.getActiveUser().getEmail() || '';
  } catch {
    userEmail = '';
  }
  return userEmail;
}

/**
 * True when the connection on record is this user's (so their user properties hold its refresh
 * token). One made while Google gave no e-mail (userinfo.email withheld) names nobody: it is the
 * user's whose properties hold its refresh token for this spreadsheet.
 */
export function isConnector(record: ConnectionRecord | null): boolean {
  if (!record) return false;
  if (!record.connectedBy) return holdsConnection();
  return record.connectedBy === currentUserEmail();
}

/** True when this user's properties hold a refresh token for this spreadsheet's connection. */
export function holdsConnection(): boolean {
  try {
    return hasRefreshToken(openSession().service.getToken(true));
  } catch {
    return false;
  }
}

export interface SharedAccessToken {
  accessToken: string;
  /** Epoch ms, or null when the token did not say. */
  expiresAt: number | null;
}

/**
 * The document's copy of the access token (never a refresh token), or null. Only one published
 * for this spreadsheet is used: one naming another spreadsheet came with a copy, and one naming
 * none was written by an older version and cannot say which spreadsheet it is for (the
 * connector's next execution with the document publishes it again, bound).
 */
export function readSharedAccessToken(): SharedAccessToken | null {
  const raw = documentProperties().getProperty(SHARED_ACCESS_TOKEN_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { access_token?: unknown; expiresAt?: unknown; spreadsheetId?: unknown };
    if (bindingOf(value.spreadsheetId) !== 'here') return null;
    const accessToken = accessTokenOf(value);
    if (!accessToken) return null;
    return { accessToken, expiresAt: typeof value.expiresAt === 'number' ? value.expiresAt : null };
  } catch {
    return null;
  }
}

/**
 * Puts the access token of the connector's stored token where formulas and other editors read it.
 * Only with the document (a documentless run cannot reach it; the next sidebar or run with the
 * document does it); written only when it changed.
 */
export function publishSharedAccessToken(token: object | null): void {
  const props = realDocumentProperties();
  const accessToken = accessTokenOf(token);
  const spreadsheetId = bindingId();
  if (!props || !accessToken || !spreadsheetId) return;
  const text = JSON.stringify({ access_token: accessToken, expiresAt: expiresAtMs(token), spreadsheetId });
  if (props.getProperty(SHARED_ACCESS_TOKEN_KEY) !== text) props.setProperty(SHARED_ACCESS_TOKEN_KEY, text);
}

export function clearSharedAccessToken(): void {
  const props = realDocumentProperties();
  if (props) props.deleteProperty(SHARED_ACCESS_TOKEN_KEY);
}
