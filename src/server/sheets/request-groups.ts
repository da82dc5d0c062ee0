/**
 * Spreadsheets.batchUpdate requests in as many calls as Google's recommended 2 MB payload needs
 * (write-size.ts; the strict runtime refuses a body past it): consecutive requests grouped while
 * their JSON stays within WRITE_PAYLOAD_BYTES, a request over it alone.
 */
import { utf8Bytes } from '../platform/property-size';
import { groupsWithin } from './groups-within';
import { WRITE_PAYLOAD_BYTES } from './write-size';

type Request = GoogleAppsScript.Sheets.Schema.Request;

/** A request's bytes in the body: its JSON and the comma after it. */
export const requestBytes = (request: Request): number => utf8Bytes(JSON.stringify(request)) + 1;

export function requestGroups(requests: readonly Request[], limit = WRITE_PAYLOAD_BYTES): Request[][] {
  return groupsWithin(requests, requestBytes, limit);
}
