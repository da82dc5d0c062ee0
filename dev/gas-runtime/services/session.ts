import { createHash } from 'node:crypto';
import type { ExecutionServiceContext } from '../types.js';

/** Google's `User`. */
export class User {
  constructor(private readonly email: string) {}

  getEmail(): string {
    return this.email;
  }
}

/** Session.getActiveUser and getEffectiveUser need it (reference/base/session, "Authorization"). */
export const USERINFO_EMAIL_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';

export class Session {
  constructor(
    private readonly ctx: ExecutionServiceContext,
    private readonly userEmail: string,
    private readonly scriptTimeZone: string,
    /** The manifest's explicit scopes; null when Google detects them itself. */
    private readonly scopes: readonly string[] | null = null,
  ) {}

  private requireEmailScope(method: string): void {
    if (this.scopes !== null && !this.scopes.includes(USERINFO_EMAIL_SCOPE)) {
      throw new Error(
        `You do not have permission to call Session.${method}. Required permissions: ${USERINFO_EMAIL_SCOPE}`,
      );
    }
  }

  /**
   * Only a FULL execution sees who the user is: blank e-mail in custom functions, NONE and LIMITED.
   * LIMITED (a simple onOpen in a document where the add-on is enabled) by the stricter reading of the
   * Editor add-on authorization lifecycle (workspace/add-ons/concepts/editor-auth-lifecycle,
   * "Authorization modes": user information only "limited" below FULL) and the Session reference
   * ("if the security policies do not allow access to the user's identity, returns a blank string").
   */
  getActiveUser(): User {
    this.requireEmailScope('getActiveUser');
    return new User(this.ctx.authMode === 'FULL' ? this.userEmail : '');
  }

  getEffectiveUser(): User {
    this.requireEmailScope('getEffectiveUser');
    return new User(this.ctx.authMode === 'FULL' ? this.userEmail : '');
  }

  getScriptTimeZone(): string {
    return this.scriptTimeZone;
  }

  getActiveUserLocale(): string {
    return 'en';
  }

  /** Stable per user and script, opaque (a hash, never the e-mail). */
  getTemporaryActiveUserKey(): string {
    return createHash('sha256').update(`temporary-user-key:${this.userEmail}`).digest('base64url').slice(0, 43);
  }
}

export const MAX_SLEEP_MS = 300_000;

/** The part of Utilities that needs the host: sleep moves the runtime clock. */
export class UtilitiesHost {
  static gasName = 'Utilities';

  constructor(private readonly sleepFor: (ms: number) => Promise<void>) {}

  sleep(milliseconds: unknown): Promise<void> {
    const ms = Number(milliseconds);
    if (!Number.isFinite(ms) || ms < 0) throw new Error('Invalid argument: milliseconds');
    if (ms > MAX_SLEEP_MS) throw new Error(`Argument too large: milliseconds (maximum ${MAX_SLEEP_MS})`);
    return this.sleepFor(ms);
  }
}
