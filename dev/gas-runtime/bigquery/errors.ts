/**
 * How BigQuery's failures reach the script. An advanced service call that the API answers with an
 * error throws "API call to bigquery.jobs.insert failed with error: <the API's message>", as the
 * Advanced Sheets service does (spreadsheet/sheets-api-common.ts); a job that runs and fails is not
 * an error of the call that created it: it ends DONE with `status.errorResult` (BigQuery REST
 * reference v2, Job.status: "errorResult: Final error result of the job. If present, indicates that
 * the job has completed and was unsuccessful").
 */

/** One entry of BigQuery's ErrorProto (reason, location, message). */
export interface ErrorProto {
  reason: string;
  message: string;
  location?: string;
}

/** A failure the API answers with an HTTP error: the call throws it. */
export class BigQueryApiError extends Error {
  constructor(
    method: string,
    message: string,
    readonly code: number,
  ) {
    super(`API call to bigquery.${method} failed with error: ${message}`);
    this.name = 'GoogleJsonResponseException';
  }
}

/** A failure of a job while it runs: recorded on the job, thrown only by calls that return its results. */
export class JobFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly details: ErrorProto[] = [],
  ) {
    super(message);
  }

  get errorResult(): ErrorProto {
    return { reason: this.reason, message: this.message };
  }
}

/** "Not found: Table p:d.t was not found in location US" (the query engine's wording; jobs.query, getQueryResults). */
export function tableNotFound(table: string): JobFailure {
  return new JobFailure('notFound', `Not found: Table ${table} was not found in location US`);
}

/** A construct of GoogleSQL the local translator does not model: an error naming it, never a guess. */
export function unsupported(what: string): JobFailure {
  return new JobFailure('invalidQuery', `Unsupported by the local BigQuery stand-in: ${what}`);
}
