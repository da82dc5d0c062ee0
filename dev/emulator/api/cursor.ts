import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Where the next page starts: after this sort key. */
export type CursorPosition =
  | { by: 'id'; id: string }
  | { by: 'updated'; updatedMs: number; id: string }
  | { by: 'date'; date: string };

export type CursorCheck =
  | { ok: true; position: CursorPosition }
  | { ok: false; code: 'INVALID_CURSOR' | 'CURSOR_FILTER_MISMATCH'; message: string };

interface Payload {
  v: 1;
  /** Endpoint the cursor pages. */
  e: string;
  /** Store the cursor pages. */
  s: string;
  /** Hash of the normalised filter set. */
  f: string;
  p: CursorPosition;
}

/** Hash of a normalised filter set: every query parameter except cursor, defaults made explicit. */
export function filterHash(filters: Record<string, string | number | null>): string {
  const canonical = Object.keys(filters)
    .sort()
    .map((k) => [k, filters[k]]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 22);
}

/**
 * Opaque, HMAC-signed cursors (spec 4.4 rule 3): base64url(JSON payload) + "." + signature. The
 * secret is per emulator process, so a cursor from another emulator run is simply invalid.
 */
export class CursorCodec {
  private readonly secret = randomBytes(32);

  encode(endpoint: string, storeId: string, filters: string, position: CursorPosition): string {
    const payload: Payload = { v: 1, e: endpoint, s: storeId, f: filters, p: position };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, endpoint: string, storeId: string, filters: string): CursorCheck {
    const invalid = (message: string): CursorCheck => ({ ok: false, code: 'INVALID_CURSOR', message });
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 2048) return invalid('cursor is malformed; restart pagination without it');
    const body = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return invalid('cursor signature does not match; restart pagination without it');
    }
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      return invalid('cursor is malformed; restart pagination without it');
    }
    if (payload.v !== 1 || payload.e !== endpoint || payload.s !== storeId) {
      return invalid('cursor was issued for another endpoint or store; restart pagination without it');
    }
    if (payload.f !== filters) {
      return {
        ok: false,
        code: 'CURSOR_FILTER_MISMATCH',
        message: 'cursor was created with a different filter set; repeat every filter of the first request or restart pagination',
      };
    }
    return { ok: true, position: payload.p };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 32);
  }
}
