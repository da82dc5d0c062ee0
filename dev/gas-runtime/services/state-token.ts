import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { RuntimeClock } from '../clock.js';

/**
 * ScriptApp state tokens: like Google's, opaque to the browser. The payload (callback name,
 * arguments such as a PKCE verifier, expiry) is sealed with AES-256-GCM under a per-runtime key
 * that never leaves memory, so a forged or altered token fails authentication.
 */

export const DEFAULT_STATE_TOKEN_TIMEOUT_S = 60;
export const MAX_STATE_TOKEN_TIMEOUT_S = 3600;

export interface StatePayload {
  method: string;
  args: Record<string, string>;
  expiresAt: number;
  /**
   * The Google user who made the token. The browser that comes back to /usercallback is signed in
   * as that user, so the callback runs as them (host-side only: the script never sees it).
   */
  user?: string;
}

export type StateCheck = { ok: true; payload: StatePayload } | { ok: false; reason: 'invalid' | 'expired' };

export class StateTokenCodec {
  private readonly key = randomBytes(32);

  constructor(private readonly clock: RuntimeClock) {}

  seal(payload: StatePayload): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  open(token: string): StateCheck {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 12 + 16 + 2) return { ok: false, reason: 'invalid' };
    let payload: StatePayload;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
      payload = JSON.parse(plain.toString('utf8')) as StatePayload;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (this.clock.now() > payload.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, payload };
  }
}

/** Google's `StateTokenBuilder`. */
export class StateTokenBuilder {
  private method: string | undefined;
  private readonly args: Record<string, string> = {};
  private timeoutSeconds = DEFAULT_STATE_TOKEN_TIMEOUT_S;

  constructor(
    private readonly codec: StateTokenCodec,
    private readonly clock: RuntimeClock,
    private readonly user?: string,
  ) {}

  withMethod(method: unknown): StateTokenBuilder {
    this.method = String(method);
    return this;
  }

  withArgument(name: unknown, value: unknown): StateTokenBuilder {
    this.args[String(name)] = String(value);
    return this;
  }

  withTimeout(seconds: unknown): StateTokenBuilder {
    const s = Number(seconds);
    if (!Number.isFinite(s) || s <= 0 || s > MAX_STATE_TOKEN_TIMEOUT_S) throw new Error('Invalid argument: seconds');
    this.timeoutSeconds = s;
    return this;
  }

  createToken(): string {
    if (!this.method) throw new Error('A state token needs a callback method: call withMethod first');
    return this.codec.seal({
      method: this.method,
      args: { ...this.args },
      expiresAt: this.clock.now() + this.timeoutSeconds * 1000,
      user: this.user,
    });
  }
}
