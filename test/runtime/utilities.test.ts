import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime, signedBytesOfHex } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeAll(async () => {
  runtime = await basicRuntime({ costModel: false });
});
afterAll(async () => {
  await runtime.close();
});

describe('Utilities.computeDigest returns signed bytes', () => {
  it('matches the FIPS 180-2 SHA-256 test vector of "abc"', async () => {
    const result = await runtime.run('digest', ['SHA_256', 'abc']);
    const expected = signedBytesOfHex('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(result.value).toEqual(expected);
    expect(Math.min(...(result.value as number[]))).toBeLessThan(0);
  });

  it('matches the RFC 1321 MD5 test vector of "abc"', async () => {
    const result = await runtime.run('digest', ['MD5', 'abc']);
    expect(result.value).toEqual(signedBytesOfHex('900150983cd24fb0d6963f7d28e17f72'));
  });

  it('computes HMAC-SHA256 as signed bytes (RFC 4231 case 2)', async () => {
    const result = await runtime.run('hmac', ['what do ya want for nothing?', 'Jefe']);
    expect(result.value).toEqual(signedBytesOfHex('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'));
    const check = createHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex');
    expect(check).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('Utilities base64', () => {
  it('encodes web-safe with - and _ (padding kept) and decodes back to signed bytes', async () => {
    const result = await runtime.run('base64', [[-5, -1, 0x3e]]);
    expect(result.value).toEqual({ standard: '+/8+', webSafe: '-_8-', back: [-5, -1, 62], text: 'aGVsbG8=' });
    const padded = await runtime.run('base64', [[-5, -1]]);
    expect((padded.value as { webSafe: string }).webSafe).toBe('-_8=');
  });
});

describe('Utilities.formatDate in IANA zones with Java patterns', () => {
  const instant = Date.UTC(2024, 0, 15, 12, 30, 45, 7); // Monday 15 January 2024, 12:30:45.007 UTC
  it('renders New York (EST, -05:00)', async () => {
    const result = await runtime.run('formatDate', [
      instant,
      'America/New_York',
      "yyyy-MM-dd'T'HH:mm:ss.SSSXXX EEE MMM Z",
    ]);
    expect(result.value).toBe('2024-01-15T07:30:45.007-05:00 Mon Jan -0500');
  });

  it('renders Kolkata (+05:30) and a 12-hour clock', async () => {
    const result = await runtime.run('formatDate', [instant, 'Asia/Kolkata', 'yyyy-MM-dd hh:mm a XXX EEEE MMMM']);
    expect(result.value).toBe('2024-01-15 06:00 PM +05:30 Monday January');
  });

  it('follows daylight saving time and UTC renders as Z', async () => {
    const summer = Date.UTC(2024, 6, 4, 3, 0, 0);
    expect((await runtime.run('formatDate', [summer, 'America/New_York', 'yyyy-MM-dd HH:mm XXX'])).value).toBe(
      '2024-07-03 23:00 -04:00',
    );
    expect((await runtime.run('formatDate', [summer, 'UTC', "yyyy-MM-dd'T'HH:mm:ssXXX"])).value).toBe(
      '2024-07-04T03:00:00Z',
    );
  });
});

describe('Utilities helpers', () => {
  it('formatString, parseCsv, newBlob and getUuid', async () => {
    const result = (await runtime.run('utilitiesMisc')).value as Record<string, unknown>;
    expect(result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.formatted).toBe('cart has 3 items costing 9.50');
    expect(result.csv).toEqual([
      ['a', 'b,c'],
      ['d "e"', 'f'],
    ]);
    expect(result.blob).toBe(Buffer.byteLength('héllo'));
    expect(result.blobText).toBe('hi');
  });

  it('computes digests in the worker without service calls', async () => {
    const result = await runtime.run('digest', ['SHA_1', 'abc']);
    expect(result.counts.serviceCalls).toBe(0);
    expect(result.value).toEqual(signedBytesOfHex(createHash('sha1').update('abc').digest('hex')));
  });
});
