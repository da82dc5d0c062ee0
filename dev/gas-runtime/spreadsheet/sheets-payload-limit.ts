/**
 * The Sheets API's request size, held to one rule for every request with a body: "To speed up
 * requests, we recommend a 2 MB maximum payload" (developers.google.com/workspace/sheets/api/limits).
 * Google documents it as advice, not as a refusal; this runtime takes the stricter reading and
 * refuses a body past 2,000,000 bytes (a MB read as 10^6 bytes) with the 413 "Request Entity Too
 * Large" that Google's front end answers an oversized body (its message as Google's API errors
 * word it: "Request payload size exceeds the limit"). Values.batchUpdate, Spreadsheets.batchUpdate
 * and Values.batchGetByDataFilter are held to it.
 */
import { GoogleJsonResponseException } from './sheets-api-common';

export const SHEETS_PAYLOAD_LIMIT = 2_000_000;

/** Bytes of the request body as the REST API receives it: the resource serialised as JSON, UTF-8. */
export function sheetsPayloadBytes(resource: unknown): number {
  return Buffer.byteLength(JSON.stringify(resource ?? {}), 'utf8');
}

/** Throws Google's error for a body past the limit; `advice` says what to send fewer of. */
export function checkPayloadSize(method: string, resource: unknown, advice: string): void {
  const bytes = sheetsPayloadBytes(resource);
  if (bytes > SHEETS_PAYLOAD_LIMIT)
    throw new GoogleJsonResponseException(
      method,
      `Request payload size exceeds the limit: the body has ${bytes} bytes, over ${SHEETS_PAYLOAD_LIMIT}; ${advice}`,
      413,
    );
}
