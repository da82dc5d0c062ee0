import { createHash } from 'node:crypto';

/** RFC 7636 4.1: 43-128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA-256(...)) without padding is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function isWellFormedS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return s256Challenge(verifier) === challenge;
}
