/**
 * Every code_verifier presented at the token endpoint, as the emulator received it, with the
 * challenge of the code it was presented for. Served only at GET /_emulator/pkce, so tests can
 * check what a client really sends (RFC 7636 4.1: 43–128 unreserved characters, one per flow)
 * rather than what it says it sends. Never part of stats, grants or any API answer.
 */
export interface PkceRedemption {
  at: string;
  code_verifier: string;
  /** The S256 challenge the authorize request carried for this code; null for an unknown code. */
  code_challenge: string | null;
  well_formed: boolean;
  matched: boolean;
}

export class PkceLedger {
  private entries: PkceRedemption[] = [];

  record(entry: PkceRedemption): void {
    this.entries.push(entry);
  }

  all(): PkceRedemption[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
