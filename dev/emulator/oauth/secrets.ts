import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque, unguessable token value (256 bits, base64url). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are kept in memory under their SHA-256, so a dump of the store holds no usable value. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Signs identifiers with a per-process key; the consent form carries only a signed transaction id. */
export class Signer {
  private key = randomBytes(32);

  rotate(): void {
    this.key = randomBytes(32);
  }

  sign(id: string): string {
    return `${id}.${this.mac(id)}`;
  }

  /** Returns the id when the signature is ours, else null. */
  verify(signed: string): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = signed.slice(0, dot);
    return constantTimeEqual(signed.slice(dot + 1), this.mac(id)) ? id : null;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.key).update(id, 'utf8').digest('base64url');
  }
}
