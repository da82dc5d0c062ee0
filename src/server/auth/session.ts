import { getDeploymentConfig, type DeploymentConfig } from '../config';
import { createOAuthService, type OAuthService } from './service';

/** Waiting longer than this for another execution's refresh means something is stuck. */
const LOCK_WAIT_MS = 30_000;

let executionDocumentLock: GoogleAppsScript.Lock.Lock | null = null;

/**
 * The document lock of this execution, one object shared by everything that locks the document
 * (auth, sync): the library skips locking when this object already holds the lock, and a second
 * Lock object could otherwise wait on the first.
 */
export function documentLock(): GoogleAppsScript.Lock.Lock {
  if (!executionDocumentLock) executionDocumentLock = LockService.getDocumentLock();
  return executionDocumentLock;
}

/** Runs fn holding the document lock (re-entrant for this execution), releasing it in finally. */
export function withDocumentLock<T>(fn: () => T): T {
  const lock = documentLock();
  const alreadyHeld = lock.hasLock();
  if (!alreadyHeld) lock.waitLock(LOCK_WAIT_MS);
  try {
    return fn();
  } finally {
    if (!alreadyHeld) lock.releaseLock();
  }
}

export interface AuthSession {
  config: DeploymentConfig;
  service: OAuthService;
}

export function openSession(): AuthSession {
  const config = getDeploymentConfig();
  return { config, service: createOAuthService(config, documentLock()) };
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
  if (isFinite(grantedTime) && grantedTime > 0 && isFinite(expiresIn) && expiresIn > 0) return (grantedTime + expiresIn) * 1000;
  return null;
}
