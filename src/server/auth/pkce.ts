/**
 * A PKCE code verifier from Apps Script's UUID source rather than Math.random (which the
 * library's generateCodeVerifier uses): three random UUIDs give 366 random bits, written as 96
 * lowercase hex characters — inside RFC 7636's 43–128 characters of the unreserved set.
 */
export function secureCodeVerifier(): string {
  let verifier = '';
  for (let i = 0; i < 3; i++) verifier += Utilities.getUuid().replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{96}$/.test(verifier)) throw new Error('Could not create a secure PKCE verifier.');
  return verifier;
}
