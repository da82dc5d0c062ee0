/**
 * Modelled durations of BigQuery work on the runtime clock (orders of magnitude, not measurements;
 * Google publishes no latency figures — see dev/gas-runtime/README.md, "Cost model").
 */

/** One REST call of the advanced service (datasets, tables, jobs.get, a page of results): as an Advanced Sheets call, ~0.3 s (Tanaike 2023). */
export const REQUEST_MS = 300;
/** A load job: seconds even for a small file (assumption: public reports give 2–5 s), plus 1 s per MB of media. */
export const LOAD_JOB_MS = 3_000;
export const LOAD_JOB_MS_PER_MB = 1_000;
/** A SELECT: about a second for the small scans the add-on makes (assumption). */
export const QUERY_JOB_MS = 1_000;
/** A DML statement (MERGE, UPDATE, DELETE, INSERT): several seconds (assumption: public reports give 2–5 s). */
export const DML_JOB_MS = 3_000;
