/**
 * Values.batchGet in as many requests as its URL needs. The call is an HTTP GET with every range in
 * its query string; Google documents no URL limit and public reports show failures around 20,000
 * characters (dust-tt/dust PR #4042 chunks the ranges), so the ranges go out in requests whose URL
 * stays under URL_BUDGET, below the strict runtime's 16,384 (2,384 characters of room for what the advanced
 * service adds to the query). Each request is one read against the per-minute quota (sheetsRequest).
 */
import { sheetsRequest } from './sheets-requests';

/** Characters of the URL a request may take, ranges and options included. */
export const URL_BUDGET = 14_000;

export interface BatchGetOptions {
  valueRenderOption?: 'UNFORMATTED_VALUE' | 'FORMATTED_VALUE' | 'FORMULA';
  dateTimeRenderOption?: 'SERIAL_NUMBER' | 'FORMATTED_STRING';
}

interface ValueRange {
  values?: unknown[][];
}

type BatchGet = (
  spreadsheetId: string,
  options: BatchGetOptions & { ranges: string[] },
) => { valueRanges?: ValueRange[] } | undefined;

/** The ranges cut into consecutive groups whose batchGet URL stays within the budget (a group holds at least one range). */
export function rangeGroups(spreadsheetId: string, ranges: readonly string[], options: BatchGetOptions): string[][] {
  let fixed = `https://sheets.googleapis.com/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}/values:batchGet?`
    .length;
  for (const [k, v] of Object.entries(options)) if (v !== undefined) fixed += `${k}=${String(v)}&`.length;
  const groups: string[][] = [];
  let group: string[] = [];
  let length = fixed;
  for (const range of ranges) {
    const cost = `ranges=${encodeURIComponent(range)}&`.length;
    if (group.length > 0 && length + cost > URL_BUDGET) {
      groups.push(group);
      group = [];
      length = fixed;
    }
    group.push(range);
    length += cost;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The values of every range, in order: one Values.batchGet per group of ranges, each a paced read. */
export function batchGetValues(
  batchGet: BatchGet,
  spreadsheetId: string,
  ranges: readonly string[],
  options: BatchGetOptions,
): ValueRange[] {
  const out: ValueRange[] = [];
  for (const group of rangeGroups(spreadsheetId, ranges, options)) {
    const got = sheetsRequest('read', () => batchGet(spreadsheetId, { ...options, ranges: group }));
    for (let i = 0; i < group.length; i++) out.push(got?.valueRanges?.[i] ?? {});
  }
  return out;
}
