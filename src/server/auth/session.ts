import { getDeploymentConfig, type DeploymentConfig } from '../platform/config';
import { boundSpreadsheet, currentSpreadsheetId, MissingContextError } from '../platform/context';
import { forgetRecentReads } from '../platform/properties';
import { tokenPropertyOf } from './constants';
import { createOAuthService, type OAuthService } from './service';

/** Waiting longer than this for another execution's refresh means something is stuck. */
const LOCK_WAIT_MS = 30_000;

let executionDocumentLock: GoogleAppsScript.Lock.Lock | null = null;
let executionUserLock: GoogleAppsScript.Lock.Lock | null = null;

/**
 * The user lock of this execution, one object shared by the OAuth library and by this module: it
 * guards the user's own token (refresh and save), which only that user's executions touch.
 */
export function userLock(): GoogleAppsScript.Lock.Lock {
  if (!executionUserLock)
    executionUserLock = readingAfresh(LockService.getUserLock(), {
      taken: () => (userLockHolding = ++userLockTakings),
      released: () => (userLockHolding = null),
    });
  return executionUserLock;
}

/**
 * Which holding of the user lock this execution is in (null: not holding it), counted by the lock
 * object every part of it locks with: a read of the token is fresh for one holding. Kept here, so
 * knowing it is no Lock call.
 */
let userLockTakings = 0;
let userLockHolding: number | null = null;

interface LockWatch {
  taken(): void;
  released(): void;
}

/**
 * The lock, forgetting the document properties' recent reads whenever it is taken: what an
 * execution reads under a lock is read from the store, never a value it read moments before.
 */
function readingAfresh(lock: GoogleAppsScript.Lock.Lock, watch?: LockWatch): GoogleAppsScript.Lock.Lock {
  const afresh = (): void => {
    forgetRecentReads();
    watch?.taken();
  };
  return {
    tryLock(timeoutInMillis: number): boolean {
      const got = lock.tryLock(timeoutInMillis);
      if (got) afresh();
      return got;
    },
    waitLock(timeoutInMillis: number): void {
      lock.waitLock(timeoutInMillis);
      afresh();
    },
    hasLock: () => lock.hasLock(),
    releaseLock: () => {
      lock.releaseLock();
      watch?.released();
    },
  };
}

/**
 * The document lock of this execution, one object shared by everything that locks the document
 * (auth, sync): a second Lock object could otherwise wait on the first. A scheduled run that
 * Google started without the document works on its owner's copy of the document state
 * (the owner copy), which only the owner's executions touch: the user lock guards it.
 */
export function documentLock(): GoogleAppsScript.Lock.Lock {
  if (executionDocumentLock) return executionDocumentLock;
  const lock = LockService.getDocumentLock();
  if (lock) return (executionDocumentLock = readingAfresh(lock));
  if (boundSpreadsheet()) return (executionDocumentLock = userLock());
  throw new MissingContextError('the document lock', 'this execution has no document');
}

function withLock<T>(lock: GoogleAppsScript.Lock.Lock, fn: () => T): T {
  const alreadyHeld = lock.hasLock();
  if (!alreadyHeld) lock.waitLock(LOCK_WAIT_MS);
  try {
    return fn();
  } finally {
    if (!alreadyHeld) lock.releaseLock();
  }
}

/** Runs fn holding the document lock (re-entrant for this execution), releasing it in finally. */
export function withDocumentLock<T>(fn: () => T): T {
  return withLock(documentLock(), fn);
}

/** Runs fn holding the user lock (the user's token), re-entrant for this execution. */
export function withUserLock<T>(fn: () => T): T {
  return withLock(userLock(), fn);
}

export interface AuthSession {
  config: DeploymentConfig;
  service: OAuthService;
  /** The user property the library keeps the token under (`oauth2.<service name>`). */
  tokenProperty: string;
  /** The holding of the user lock (userLockTakings) in which the token was last read from the property. */
  readInHolding?: number;
}

let executionSession: AuthSession | null = null;

/**
 * The library's service over this user's token for the spreadsheet this execution serves: one per
 * execution, so that every part of it shares the library's memory of the token (each getToken
 * without a fresh read is then a read the execution already made, not another property call).
 */
export function openSession(): AuthSession {
  const config = getDeploymentConfig();
  const spreadsheetId = currentSpreadsheetId();
  if (!spreadsheetId)
    throw new MissingContextError('the spreadsheet', 'no document and no spreadsheet named for this execution');
  const tokenProperty = tokenPropertyOf(spreadsheetId);
  if (executionSession?.tokenProperty === tokenProperty) return executionSession;
  return (executionSession = {
    config,
    service: createOAuthService(config, spreadsheetId, userLock()),
    tokenProperty,
  });
}

/**
 * The token as the user properties hold it now (the library has no cache: createOAuthService), or
 * null when there is none or it cannot be read. Under the user lock it is read from the property
 * once per holding: only this user's executions write it, under that lock, and this execution's
 * own writes go through the library's storage, which keeps what it wrote.
 */
export function savedToken(s: AuthSession): Record<string, unknown> | null {
  const holding = userLockHolding;
  try {
    const token: unknown = s.service.getToken(holding === null || s.readInHolding !== holding);
    if (holding !== null) s.readInHolding = holding;
    return token !== null && typeof token === 'object' ? (token as Record<string, unknown>) : null;
  } catch (e) {
    // An unreadable value is no token; a refused read (the day's Properties allowance) is not "none".
    if (e instanceof SyntaxError) return null;
    throw e;
  }
}

/** The fields of the library's stored token this module reads (raw token response + expiresAt). */
export interface StoredToken {
  access_token?: unknown;
  refresh_token?: unknown;
  scope?: unknown;
  expiresAt?: unknown;
  granted_time?: unknown;
  expires_in?: unknown;
}

export function accessTokenOf(token: object | null): string | null {
  const value = token ? (token as StoredToken).access_token : null;
  return typeof value === 'string' && value !== '' ? value : null;
}

export function hasRefreshToken(token: object | null): boolean {
  const value = token ? (token as StoredToken).refresh_token : null;
  return typeof value === 'string' && value !== '';
}

export function grantedScopes(token: object | null): string[] {
  const value = token ? (token as StoredToken).scope : null;
  return typeof value === 'string' ? value.split(' ').filter((s) => s !== '') : [];
}

/** When the access token expires (epoch ms), or null when the token does not say. */
export function expiresAtMs(token: object | null): number | null {
  if (!token) return null;
  const t = token as StoredToken;
  if (typeof t.expiresAt === 'number' && isFinite(t.expiresAt)) return t.expiresAt * 1000;
  const grantedTime = Number(t.granted_time);
  const expiresIn = Number(t.expires_in);
  if (isFinite(grantedTime) && grantedTime > 0 && isFinite(expiresIn) && expiresIn > 0)
    return (grantedTime + expiresIn) * 1000;
  return null;
}
