/**
 * The BigQuery limits the runtime enforces, each after the page that documents it.
 * "Quotas and limits": https://cloud.google.com/bigquery/quotas
 */

/**
 * "Load jobs per table per day: 1,500" (Quotas and limits, "Load jobs"); failed jobs count too.
 * Counted over a rolling 24 hours ("Optimize load jobs": the quota "gradually refills over the next
 * 24 hours"; https://cloud.google.com/bigquery/docs/optimize-load-jobs), so no midnight resets it.
 */
export const LOAD_JOBS_PER_TABLE_PER_DAY = 1_500;

/** The quota's refusal, with the reason `quotaExceeded` (HTTP 403), as "Troubleshoot quota and limit errors" quotes it. */
export const LOAD_QUOTA_MESSAGE =
  'Quota exceeded: Your table exceeded quota for imports or query appends per table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas';

/**
 * Mutating DML (UPDATE, DELETE, MERGE) per table: "Concurrent mutating DML statements per table: 2"
 * (Quotas and limits, "Data manipulation language statements"; the DML page, "UPDATE, DELETE, MERGE
 * DML concurrency"). Google queues up to 20 more as PENDING; the runtime takes the stricter figure
 * and models no queue: a third while two are running on the table fails.
 */
export const CONCURRENT_MUTATING_DML_PER_TABLE = 2;

export function dmlOutstandingMessage(table: string): string {
  return `Resources exceeded during query execution: Too many DML statements outstanding against table ${table}, limit is ${CONCURRENT_MUTATING_DML_PER_TABLE}.`;
}

/**
 * A load sent as the request's media: the API's request size limit, 10 MB ("Quotas and limits",
 * "API requests": maximum request size), taken as the stricter reading for the media the advanced
 * service uploads (the REST reference's 5 TB is for resumable uploads, which Apps Script does not
 * offer). Google's front end answers a bigger body with this message (HTTP 413).
 */
export const MAX_LOAD_REQUEST_BYTES = 10 * 1024 * 1024;
export const REQUEST_TOO_LARGE_MESSAGE = `Request payload size exceeds the limit: ${MAX_LOAD_REQUEST_BYTES} bytes.`;

/**
 * A query's request is held to the same 10 MB (its parameters travel in the body); its text to
 * "Maximum query length: 1,024K characters" unresolved, and its parameters to "Maximum number of
 * query parameters: 10,000" ("Quotas and limits", "Query jobs"). An ARRAY parameter counts as one.
 */
export const MAX_QUERY_CHARS = 1024 * 1024;
export const MAX_QUERY_PARAMETERS = 10_000;
export const QUERY_TOO_LONG_MESSAGE =
  'The query is too large. The maximum standard SQL query length is 1024.00K characters, including comments and white space characters.';

/**
 * A page of jobs.getQueryResults, jobs.query or tabledata.list holds at most 10 MB of rows
 * ("Quotas and limits", "Maximum response size" of a page): fewer rows than maxResults then, and a
 * pageToken for the rest.
 */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** jobs.query and jobs.getQueryResults wait up to timeoutMs for the job, 10 s when not given (REST reference v2). */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/** The only location the stand-in has (jobs and "not found" messages name it). */
export const LOCATION = 'US';
