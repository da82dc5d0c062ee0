/**
 * Where the tokens live (docs/architecture.md, "Where the connection lives"): the refresh token with the user
 * who connected (their user properties, per spreadsheet: the OAuth2 service); the document holds a copy
 * of the short-lived access token only, for formulas and for the other editors, written by the
 * connecting user's executions that have the document.
 */
import { realDocumentProperties, documentProperties } from '../platform/properties';
import { isPropertyStoreFull } from '../platform/owner-copy-full';
import { formulaTokenKey, SHARED_ACCESS_TOKEN_KEY } from './constants';
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
  /** When a scheduled run published it: when the next one is due, as the sidebar says it ("Next run: about 15:05."). */
  nextRun: string | null;
}

/** Set by a scheduled run before it renews: published with the token, for a formula's message once it runs out. */
let nextRenewal: string | null = null;

export function expectNextRenewal(nextRun: string | null): void {
  nextRenewal = nextRun;
}

/**
 * The document's copy of the access token (never a refresh token), or null. Only one published
 * for this spreadsheet is used: one naming another spreadsheet came with a copy, and one naming
 * none was written by an older version and cannot say which spreadsheet it is for (the
 * connector's next execution with the document publishes it again, bound).
 */
export function readSharedAccessToken(): SharedAccessToken | null {
  return parseShared(documentProperties().getProperty(SHARED_ACCESS_TOKEN_KEY));
}

/**
 * The copy a run without the document left in the connector's user properties (formulaTokenKey):
 * in a custom function, the spreadsheet owner's store. Null when the owner is not the connector.
 */
export function readOwnersAccessToken(): SharedAccessToken | null {
  const spreadsheetId = bindingId();
  if (!spreadsheetId) return null;
  return parseShared(PropertiesService.getUserProperties().getProperty(formulaTokenKey(spreadsheetId)));
}

function parseShared(raw: string | null): SharedAccessToken | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as {
      access_token?: unknown;
      expiresAt?: unknown;
      spreadsheetId?: unknown;
      nextRun?: unknown;
    };
    if (bindingOf(value.spreadsheetId) !== 'here') return null;
    const accessToken = accessTokenOf(value);
    if (!accessToken) return null;
    return {
      accessToken,
      expiresAt: typeof value.expiresAt === 'number' ? value.expiresAt : null,
      nextRun: typeof value.nextRun === 'string' ? value.nextRun : null,
    };
  } catch {
    return null;
  }
}

/**
 * Puts the access token of the connector's stored token where formulas and other editors read it:
 * the document properties; without the document (a scheduled run Google started without it), the
 * connector's user properties (formulaTokenKey), which formulas read when the connector owns the
 * spreadsheet, and the next execution with the document publishes it there. Written only when it changed.
 */
export function publishSharedAccessToken(token: object | null): void {
  const accessToken = accessTokenOf(token);
  const spreadsheetId = bindingId();
  if (!accessToken || !spreadsheetId) return;
  const props = realDocumentProperties();
  const store = props ?? PropertiesService.getUserProperties();
  const key = props ? SHARED_ACCESS_TOKEN_KEY : formulaTokenKey(spreadsheetId);
  const published: Record<string, unknown> = {
    access_token: accessToken,
    expiresAt: expiresAtMs(token),
    spreadsheetId,
  };
  if (nextRenewal) published.nextRun = nextRenewal;
  const text = JSON.stringify(published);
  // Every API request of a run asks: one read of the store per execution and token, not per request.
  if (publishedNow === `${key}\n${text}`) return;
  try {
    // A token this execution's renewal just obtained is in nobody's copy yet: no read to compare.
    if (renewedHere.has(accessToken) || store.getProperty(key) !== text) store.setProperty(key, text);
  } catch (e) {
    // The user's store full (the owner copies of other spreadsheets): formulas wait for a run with the document.
    if (props || !isPropertyStoreFull(e)) throw e;
    console.error('[token] no room in the user properties for the formulas’ access token');
  }
  publishedNow = `${key}\n${text}`;
}

let publishedNow: string | null = null;

/** Access tokens this execution's renewals obtained (noteRenewedAccessToken). */
const renewedHere = new Set<string>();

export function noteRenewedAccessToken(token: object | null): void {
  const accessToken = accessTokenOf(token);
  if (accessToken) renewedHere.add(accessToken);
}

/** Disconnect: the document's copy, and the one a run without the document left in this user's properties. */
export function clearSharedAccessToken(): void {
  publishedNow = null;
  const props = realDocumentProperties();
  if (props) props.deleteProperty(SHARED_ACCESS_TOKEN_KEY);
  const spreadsheetId = bindingId();
  if (spreadsheetId) PropertiesService.getUserProperties().deleteProperty(formulaTokenKey(spreadsheetId));
}
