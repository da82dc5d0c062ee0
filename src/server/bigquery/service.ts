/**
 * The BigQuery advanced service (manifest: enabledAdvancedServices, serviceId "bigquery", v2) and
 * its jobs: inserted under an id the caller chooses, so an insert that reached BigQuery but not its
 * answer is not run twice (BigQuery "Managing jobs", "Generate a job ID": retrying with the same id
 * gets "Already Exists", and the job is read instead), then waited for with jobs.get a second
 * apart, as Google's Apps Script BigQuery sample does. No job names its location: BigQuery runs it
 * where its dataset is (the user may name an existing dataset in any location); every jobs.get
 * passes the location the job answered with, which a job in a single region (europe-west3) needs
 * (REST reference, jobs.get, `location`: "You must specify the location … if the job's location is
 * in a single region").
 */
type Job = GoogleAppsScript.BigQuery.Schema.Job;

export class BigQueryJobError extends Error {
  constructor(
    message: string,
    readonly reason: string | null,
  ) {
    super(message);
    this.name = 'BigQueryJobError';
  }
}

/** The advanced service; the add-on's manifest enables it. */
export function bigQuery(): GoogleAppsScript.BigQuery {
  if (typeof BigQuery === 'undefined' || !BigQuery) throw new Error('The BigQuery advanced service is not enabled.');
  return BigQuery;
}

/** True for the API's answer to an insert of something that is there already. */
export function alreadyExists(e: unknown): boolean {
  return /: Already Exists: /.test(String((e as Error)?.message ?? e));
}

/** True for the API's answer when a dataset, table or job is not there. */
export function notFound(e: unknown): boolean {
  return /: Not found: /.test(String((e as Error)?.message ?? e));
}

export function insertJob(
  projectId: string,
  jobId: string,
  configuration: GoogleAppsScript.BigQuery.Schema.JobConfiguration,
  media?: GoogleAppsScript.Base.Blob,
): Job {
  const resource: Job = { jobReference: { projectId, jobId }, configuration };
  try {
    return media ? bigQuery().Jobs!.insert(resource, projectId, media) : bigQuery().Jobs!.insert(resource, projectId);
  } catch (e) {
    if (!alreadyExists(e)) throw e;
    return bigQuery().Jobs!.get(projectId, jobId, locationArg(existingJobLocation(e)));
  }
}

/** The location the API names in "Already Exists: Job project:LOCATION.jobId"; null when it names none. */
function existingJobLocation(e: unknown): string | null {
  const m = /Already Exists: Job [^:\s]+:([^.\s]+)\./.exec(String((e as Error)?.message ?? e));
  return m ? m[1] : null;
}

/** jobs.get's and jobs.getQueryResults' optional arguments naming the job's location (none when unknown). */
export function locationArg(location: string | null | undefined): { location?: string } {
  return location ? { location } : {};
}

const POLL_MS = 1000;
/** How long one jobs.getQueryResults waits for its job before answering jobComplete: false (BigQuery's default, 10 s). */
const QUERY_WAIT_MS = 10_000;

/**
 * Waits until every job is DONE; throws the first one's error (its message is the API's). The jobs
 * run together, so they are waited for one after the other, each read until DONE: once the first is
 * done the others mostly are, and one read each says so. A query job (DML) is waited for by
 * jobs.getQueryResults, which answers as soon as the job completes or after its timeoutMs ("Running
 * queries", REST reference jobs.getQueryResults); a load job by jobs.get a second apart (Google's
 * Apps Script BigQuery sample). The job's final resource (status, dmlStats) is always read with
 * jobs.get, whose error result is the job's own.
 */
export function waitForJobs(projectId: string, jobs: readonly Job[]): Job[] {
  const done = awaitJobs(projectId, jobs);
  throwFirstError(done);
  return done;
}

/** As waitForJobs, without throwing: each job's final resource, failed or not. */
export function awaitJobs(projectId: string, jobs: readonly Job[]): Job[] {
  const done = jobs.slice();
  for (let i = 0; i < done.length; i++) {
    const { jobId, location } = done[i].jobReference ?? {};
    const isQuery = done[i].configuration?.query !== undefined;
    let sleepFirst = !isQuery;
    while (done[i].status?.state !== 'DONE') {
      if (sleepFirst) Utilities.sleep(POLL_MS);
      // A getQueryResults that failed (a failed job answers with its error) is followed by a poll's wait.
      sleepFirst = !isQuery || !awaitQuery(projectId, String(jobId), location);
      done[i] = bigQuery().Jobs!.get(projectId, String(jobId), locationArg(location));
    }
  }
  return done;
}

/** Throws the first failed job's error (its message is the API's). */
export function throwFirstError(jobs: readonly Job[]): void {
  for (const job of jobs) {
    const error = job.status?.errorResult;
    if (error) throw new BigQueryJobError(`BigQuery: ${error.message ?? 'the job failed'}`, error.reason ?? null);
  }
}

/** Waits for a query job through jobs.getQueryResults (no rows asked for); false when the call failed. */
function awaitQuery(projectId: string, jobId: string, location: string | undefined): boolean {
  try {
    bigQuery().Jobs!.getQueryResults(projectId, jobId, {
      ...locationArg(location),
      timeoutMs: QUERY_WAIT_MS,
      maxResults: 0,
    });
    return true;
  } catch {
    return false;
  }
}
