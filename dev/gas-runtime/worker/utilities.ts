import { createHash, createHmac, randomUUID } from 'node:crypto';
import { formatDate } from './date-format.js';
import { formatString, parseCsv } from './text-format.js';
import type { Realm } from './realm.js';

/** Utilities as Apps Script has it, computed in the worker (no service call) except sleep. */

const DIGESTS: Record<string, string> = {
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
};
const MACS: Record<string, string> = {
  HMAC_MD5: 'md5',
  HMAC_SHA_1: 'sha1',
  HMAC_SHA_256: 'sha256',
  HMAC_SHA_384: 'sha384',
  HMAC_SHA_512: 'sha512',
};
const CHARSETS: Record<string, BufferEncoding> = {
  UTF_8: 'utf8',
  'UTF-8': 'utf8',
  US_ASCII: 'latin1',
  'US-ASCII': 'latin1',
  'ISO-8859-1': 'latin1',
};

function invalid(name: string): Error {
  return new Error(`Invalid argument: ${name}`);
}

function encodingOf(charset: unknown): BufferEncoding {
  if (charset === undefined || charset === null) return 'utf8';
  const encoding = CHARSETS[String(charset).toUpperCase()];
  if (!encoding) throw invalid('charset');
  return encoding;
}

/** Apps Script byte arrays hold signed bytes; accept both signed and unsigned numbers. */
function toBuffer(value: unknown, charset?: unknown): Buffer {
  if (typeof value === 'string') return Buffer.from(value, encodingOf(charset));
  if (Array.isArray(value)) return Buffer.from(value.map((b) => Number(b) & 0xff));
  throw invalid('value');
}

function signedBytes(buffer: Buffer): number[] {
  return Array.from(buffer, (b) => (b > 127 ? b - 256 : b));
}

export function createUtilities(realm: Realm, sleep: (ms: number) => unknown): Record<string, unknown> {
  const bytes = (buffer: Buffer): unknown[] => realm.newArray(signedBytes(buffer));
  const run = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw realm.newError({ name: 'Exception', message: error instanceof Error ? error.message : String(error) });
    }
  };

  const newBlob = (data: unknown, contentType?: string, name?: string): object => {
    const state = {
      bytes: data === undefined ? Buffer.alloc(0) : toBuffer(data),
      contentType: contentType ?? null,
      name: name ?? null,
    };
    const blob = realm.newObject();
    const methods: Record<string, (...args: unknown[]) => unknown> = {
      getBytes: () => bytes(state.bytes),
      getDataAsString: (charset?: unknown) => state.bytes.toString(encodingOf(charset)),
      setDataFromString: (s: unknown, charset?: unknown) => {
        state.bytes = toBuffer(String(s), charset);
        return blob;
      },
      setBytes: (b: unknown) => {
        state.bytes = toBuffer(b);
        return blob;
      },
      getContentType: () => state.contentType,
      setContentType: (t: unknown) => {
        state.contentType = t === null ? null : String(t);
        return blob;
      },
      getName: () => state.name,
      setName: (n: unknown) => {
        state.name = String(n);
        return blob;
      },
      copyBlob: () => newBlob(signedBytes(state.bytes), state.contentType ?? undefined, state.name ?? undefined),
      isGoogleType: () => false,
      getAs: () => {
        throw new Error('Blob.getAs is not emulated');
      },
    };
    for (const [key, fn] of Object.entries(methods)) {
      Object.defineProperty(blob, key, { value: (...args: unknown[]) => run(() => fn(...args)), enumerable: false });
    }
    realm.blobs.set(blob, state);
    return blob;
  };

  const api: Record<string, (...args: never[]) => unknown> = {
    computeDigest: (algorithm: unknown, value: unknown, charset?: unknown) => {
      const hash = DIGESTS[String(algorithm)];
      if (!hash) throw invalid('algorithm');
      return bytes(createHash(hash).update(toBuffer(value, charset)).digest());
    },
    computeHmacSignature: (algorithm: unknown, value: unknown, key: unknown, charset?: unknown) => {
      const hash = MACS[String(algorithm)];
      if (!hash) throw invalid('algorithm');
      return bytes(createHmac(hash, toBuffer(key, charset)).update(toBuffer(value, charset)).digest());
    },
    computeHmacSha256Signature: (value: unknown, key: unknown, charset?: unknown) =>
      bytes(createHmac('sha256', toBuffer(key, charset)).update(toBuffer(value, charset)).digest()),
    base64Encode: (data: unknown, charset?: unknown) => toBuffer(data, charset).toString('base64'),
    base64EncodeWebSafe: (data: unknown, charset?: unknown) =>
      toBuffer(data, charset).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    base64Decode: (encoded: unknown) => {
      if (typeof encoded !== 'string' || /[^A-Za-z0-9+/=\s]/.test(encoded)) throw new Error('Could not decode string.');
      return bytes(Buffer.from(encoded, 'base64'));
    },
    base64DecodeWebSafe: (encoded: unknown) => {
      if (typeof encoded !== 'string' || /[^A-Za-z0-9\-_=\s]/.test(encoded))
        throw new Error('Could not decode string.');
      return bytes(Buffer.from(encoded, 'base64url'));
    },
    newBlob: (data: unknown, contentType?: unknown, name?: unknown) =>
      newBlob(
        data,
        contentType === undefined ? undefined : String(contentType),
        name === undefined ? undefined : String(name),
      ),
    getUuid: () => randomUUID(),
    formatDate: (date: unknown, timeZone: unknown, pattern: unknown) =>
      formatDate(date as Date, String(timeZone), String(pattern)),
    formatString: (template: unknown, ...args: unknown[]) => formatString(String(template), args),
    parseCsv: (csv: unknown, delimiter?: unknown) =>
      realm.newArray(
        parseCsv(String(csv), delimiter === undefined ? ',' : String(delimiter)).map((row) => realm.newArray(row)),
      ),
    sleep: (ms: unknown) => sleep(Number(ms)),
    jsonParse: (text: unknown) => realm.importValue(JSON.parse(String(text))),
    jsonStringify: (value: unknown) => JSON.stringify(value),
  };

  const utilities = realm.newObject();
  for (const [key, fn] of Object.entries(api)) {
    const call =
      key === 'sleep' ? fn : (...args: unknown[]) => run(() => (fn as (...a: unknown[]) => unknown)(...args));
    Object.defineProperty(utilities, key, { value: call, enumerable: false });
  }
  const enums: Record<string, string[]> = {
    Charset: ['US_ASCII', 'UTF_8'],
    DigestAlgorithm: ['MD2', 'MD5', 'SHA_1', 'SHA_256', 'SHA_384', 'SHA_512'],
    MacAlgorithm: Object.keys(MACS),
    RsaAlgorithm: ['RSA_SHA_1', 'RSA_SHA_256'],
  };
  for (const [name, values] of Object.entries(enums)) {
    const obj = realm.newObject();
    for (const v of values) obj[v] = v;
    utilities[name] = Object.freeze(obj);
  }
  return utilities;
}
