/**
 * Result pages as the REST API gives them: rows as {f: [{v}]} with every value a string and NULL as
 * null, totalRows as a string, and a pageToken while rows remain (jobs.getQueryResults,
 * jobs.query, tabledata.list). A page stops at maxResults or at 10 MB of rows (limits.ts).
 */
import { BigQueryApiError } from './errors.js';
import type { ResultColumn } from './job-record.js';
import { MAX_PAGE_BYTES } from './limits.js';

export interface PageRequest {
  maxResults?: unknown;
  pageToken?: unknown;
  startIndex?: unknown;
}

export interface Page {
  rows: Array<{ f: Array<{ v: string | null }> }>;
  totalRows: string;
  pageToken?: string;
}

function encodeToken(scope: string, offset: number): string {
  return Buffer.from(`${scope}|${offset}`, 'utf8').toString('base64url');
}

/** Where a page starts: its pageToken (which must come from this job or table), else startIndex, else 0. */
export function pageStart(method: string, scope: string, request: PageRequest): number {
  if (request.pageToken !== undefined && request.pageToken !== null) {
    const decoded = Buffer.from(String(request.pageToken), 'base64url').toString('utf8');
    const sep = decoded.lastIndexOf('|');
    if (sep < 0 || decoded.slice(0, sep) !== scope || !/^\d+$/.test(decoded.slice(sep + 1)))
      throw new BigQueryApiError(method, 'Invalid page token.', 400);
    return Number(decoded.slice(sep + 1));
  }
  const start = Number(request.startIndex ?? 0);
  if (!Number.isInteger(start) || start < 0)
    throw new BigQueryApiError(method, `Invalid startIndex: ${String(request.startIndex)}`, 400);
  return start;
}

export function maxResultsOf(method: string, request: PageRequest): number {
  if (request.maxResults === undefined || request.maxResults === null) return Number.POSITIVE_INFINITY;
  const n = Number(request.maxResults);
  if (!Number.isInteger(n) || n < 0)
    throw new BigQueryApiError(method, `Invalid maxResults: ${String(request.maxResults)}`, 400);
  return n;
}

/** The page of `rows` (already from `start`) that fits maxResults and 10 MB. */
export function page(
  scope: string,
  start: number,
  total: number,
  rows: Array<Array<string | null>>,
  maxResults: number,
): Page {
  const out: Page['rows'] = [];
  let bytes = 0;
  for (const row of rows) {
    if (out.length >= maxResults) break;
    const cell = { f: row.map((v) => ({ v })) };
    const size = Buffer.byteLength(JSON.stringify(cell), 'utf8');
    if (out.length > 0 && bytes + size > MAX_PAGE_BYTES) break;
    bytes += size;
    out.push(cell);
  }
  const result: Page = { rows: out, totalRows: String(total) };
  if (start + out.length < total) result.pageToken = encodeToken(scope, start + out.length);
  return result;
}

export function schemaOf(columns: ResultColumn[]): { fields: Array<{ name: string; type: string; mode: string }> } {
  return { fields: columns.map((c) => ({ name: c.name, type: c.type, mode: 'NULLABLE' })) };
}
