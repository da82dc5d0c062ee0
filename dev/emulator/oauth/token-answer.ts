import { parseScope } from './scopes';

/** What the next successful token answers change (POST /_emulator/token-answers); a test control only. */
export interface TokenAnswerOverride {
  /** token_type named in the answer instead of Bearer (RFC 6749 7.1: a type the client may not understand). */
  tokenType: string | null;
  /** The most the grant may carry: the token is issued with only these of its scopes (RFC 6749 3.3 lets the server grant less). */
  scopes: string[] | null;
  remaining: number;
}

type Json = Record<string, unknown>;

/**
 * Test levers for a token endpoint that answers other than spec 5.5 promises: the next `count`
 * successful exchanges or refreshes name another token_type, or grant fewer scopes than were
 * asked for (the issued token really carries only those, so the API enforces them). Errors and
 * everything else stay as the spec says.
 */
export class TokenAnswerOverrides {
  private pending: TokenAnswerOverride | null = null;

  /** Parses and sets the override; returns a message naming the bad field, or null. */
  set(json: Json): string | null {
    const known = ['token_type', 'scope', 'count'];
    const unknown = Object.keys(json).filter((key) => !known.includes(key));
    if (unknown.length > 0) return `unknown field ${unknown.join(', ')}; allowed: ${known.join(', ')}`;
    const tokenType = json['token_type'] ?? null;
    if (tokenType !== null && (typeof tokenType !== 'string' || !/^[\x21-\x7e]{1,40}$/.test(tokenType)))
      return 'token_type must be 1-40 printable characters';
    let scopes: string[] | null = null;
    if (json['scope'] !== undefined) {
      const parsed = parseScope(typeof json['scope'] === 'string' ? json['scope'] : null);
      if (!parsed.ok) return parsed.message;
      scopes = parsed.scopes;
    }
    if (tokenType === null && scopes === null) return 'give token_type, scope or both';
    const count = json['count'] ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 1000)
      return 'count must be an integer from 1 to 1000';
    this.pending = { tokenType, scopes, remaining: count };
    return null;
  }

  /** Takes one use for a successful answer about to be issued, or null. */
  take(): { tokenType: string | null; scopes: string[] | null } | null {
    const current = this.pending;
    if (!current) return null;
    current.remaining -= 1;
    if (current.remaining <= 0) this.pending = null;
    return { tokenType: current.tokenType, scopes: current.scopes };
  }

  describe(): Json {
    const p = this.pending;
    return {
      pending: p
        ? { token_type: p.tokenType, scope: p.scopes ? p.scopes.join(' ') : null, remaining: p.remaining }
        : null,
    };
  }

  clear(): void {
    this.pending = null;
  }
}
