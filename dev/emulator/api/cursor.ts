import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Where the next page starts: after this sort key. */
export type CursorPosition =
  { by: 'id'; id: string } | { by: 'updated'; updatedMs: number; id: string } | { by: 'date'; date: string };

export type CursorCheck =
  | { ok: true; position: CursorPosition }
  | { ok: false; code: 'INVALID_CURSOR' | 'CURSOR_FILTER_MISMATCH'; message: string };

/**
 * How long a cursor stays valid after it was issued (emulator clock): longer than any Apps Script
 * execution (6 min), shorter than the most frequent scheduled run (hourly), so a cursor kept from
 * one run and sent in the next is always refused (spec 4.4 rule 3: one pagination run).
 */
export const CURSOR_TTL_MS = 30 * 60 * 1000;

interface Payload {
  v: 1;
  /** Data generation the cursor was issued in (a reset starts a new one). */
  g: number;
  /** Issue instant, emulator clock ms. */
  t: number;
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
 * Opaque, HMAC-signed cursors (spec 4.4 rule 3): base64url(JSON payload) + "." + signature. A
 * cursor belongs to one pagination run: it is refused with INVALID_CURSOR once CURSOR_TTL_MS has
 * passed since it was issued, after a data reset, and in another emulator process (the secret is
 * per process). Within its lifetime the same cursor may be sent again: that is how a page whose
 * answer was lost is retried, and the server cannot tell a retry from a replay.
 */
export class CursorCodec {
  private readonly secret = randomBytes(32);

  constructor(
    private readonly now: () => number,
    private readonly generation: () => number,
  ) {}

  encode(endpoint: string, storeId: string, filters: string, position: CursorPosition): string {
    const payload: Payload = {
      v: 1,
      g: this.generation(),
      t: this.now(),
      e: endpoint,
      s: storeId,
      f: filters,
      p: position,
    };
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
    if (payload.g !== this.generation())
      return invalid(
        'cursor belongs to a pagination run from before the data was reset; restart pagination without it',
      );
    if (typeof payload.t !== 'number' || this.now() - payload.t > CURSOR_TTL_MS) {
      return invalid(
        'cursor has expired: a cursor is valid only for one pagination run; restart pagination without it (from your watermark)',
      );
    }
    if (payload.f !== filters) {
      return {
        ok: false,
        code: 'CURSOR_FILTER_MISMATCH',
        message:
          'cursor was created with a different filter set; repeat every filter of the first request or restart pagination',
      };
    }
    return { ok: true, position: payload.p };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 32);
  }
}
