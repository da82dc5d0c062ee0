/**
 * Spreadsheets.batchUpdate requests in as many calls as Google's recommended 2 MB payload needs
 * (write-size.ts; the strict runtime refuses a body past it): consecutive requests grouped while
 * their JSON stays within WRITE_PAYLOAD_BYTES, a request over it alone.
 */
import { utf8Bytes } from '../platform/property-size';
import { WRITE_PAYLOAD_BYTES } from './write-size';

type Request = GoogleAppsScript.Sheets.Schema.Request;

export function requestGroups(requests: readonly Request[], limit = WRITE_PAYLOAD_BYTES): Request[][] {
  const groups: Request[][] = [];
  let group: Request[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = utf8Bytes(JSON.stringify(request)) + 1;
    if (group.length > 0 && bytes + size > limit) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(request);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
