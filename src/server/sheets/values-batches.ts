/**
 * Values.batchGet in as many requests as its URL needs (below: Values.batchGetByDataFilter, a POST,
 * in as many as its body needs). The call is an HTTP GET with every range in
 * its query string; Google documents no URL limit and public reports show failures around 20,000
 * characters (dust-tt/dust PR #4042 chunks the ranges), so the ranges go out in requests whose URL
 * stays under URL_BUDGET, below the strict runtime's 16,384 (2,384 characters of room for what the advanced
 * service adds to the query). Each request is one read against the per-minute quota (sheetsRequest).
 */
import { utf8Bytes } from '../platform/property-size';
import { groupsWithin } from './groups-within';
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
  return groupsWithin(ranges, (range) => `ranges=${encodeURIComponent(range)}&`.length, URL_BUDGET - fixed);
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

/**
 * Bytes a batchGetByDataFilter body may take. Google recommends a 2 MB payload at most
 * (developers.google.com/sheets/api/limits); the strict runtime refuses one past 2,000,000 bytes.
 */
export const BODY_BUDGET = 1_900_000;

interface DataFilterRequest extends BatchGetOptions {
  dataFilters: Array<{ a1Range: string }>;
}

interface MatchedValueRange {
  valueRange?: ValueRange;
  dataFilters?: Array<{ a1Range?: string }>;
}

type BatchGetByDataFilter = (
  resource: DataFilterRequest,
  spreadsheetId: string,
) => { valueRanges?: MatchedValueRange[] } | undefined;

/** The request bodies for the ranges: each under BODY_BUDGET bytes as JSON (a body holds at least one filter). */
export function filterRequests(ranges: readonly string[], options: BatchGetOptions): DataFilterRequest[] {
  const bytesOf = (v: unknown): number => utf8Bytes(JSON.stringify(v));
  const fixed = bytesOf({ ...options, dataFilters: [] });
  // Each filter and its comma.
  const sizeOf = (a1Range: string): number => bytesOf({ a1Range }) + 1;
  return groupsWithin(ranges, sizeOf, BODY_BUDGET - fixed).map((group) => ({
    ...options,
    dataFilters: group.map((a1Range) => ({ a1Range })),
  }));
}

/**
 * The values of every range, in order: ONE Values.batchGetByDataFilter, a paced read (more only when
 * the body passes BODY_BUDGET). A range asked twice goes out once. Each match is placed by the A1 range
 * its filter names, as the response echoes it (in order only when it echoes none and answers every
 * filter). Google documents "ranges that match any of the data filters", not one entry per filter:
 * ranges the answer leaves out are read again with Values.batchGet, whose answer is documented as one
 * ValueRange per requested range, in order (a sheet renamed or removed mid-run fails there, "Unable to
 * parse range", instead of reading as empty cells that a run would take for rows that are not there).
 */
export function batchGetByFilters(
  batchGetByDataFilter: BatchGetByDataFilter,
  batchGet: BatchGet,
  spreadsheetId: string,
  ranges: readonly string[],
  options: BatchGetOptions,
): ValueRange[] {
  const got = new Map<string, ValueRange>();
  const unmatched: string[] = [];
  for (const request of filterRequests([...new Set(ranges)], options)) {
    const answer = sheetsRequest('read', () => batchGetByDataFilter(request, spreadsheetId));
    const matches = answer?.valueRanges ?? [];
    const inOrder = matches.length === request.dataFilters.length;
    request.dataFilters.forEach(({ a1Range }, i) => {
      type Match = (typeof matches)[number] | undefined;
      const names = (m: Match): boolean => m?.dataFilters?.some((f) => f.a1Range === a1Range) === true;
      const echoless = (m: Match): boolean => m !== undefined && !m.dataFilters?.some((f) => f.a1Range !== undefined);
      const placed = names(matches[i])
        ? matches[i]
        : (matches.find(names) ?? (inOrder && echoless(matches[i]) ? matches[i] : undefined));
      if (placed === undefined) unmatched.push(a1Range);
      else got.set(a1Range, placed.valueRange ?? {});
    });
  }
  if (unmatched.length > 0) {
    const again = batchGetValues(batchGet, spreadsheetId, unmatched, options);
    unmatched.forEach((range, i) => got.set(range, again[i] ?? {}));
  }
  return ranges.map((r) => got.get(r) ?? {});
}
