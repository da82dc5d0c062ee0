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

/** Waits until every job is DONE; throws the first one's error (its message is the API's). */
export function waitForJobs(projectId: string, jobs: readonly Job[]): Job[] {
  const done = jobs.slice();
  let pending = done.map((_, i) => i).filter((i) => done[i].status?.state !== 'DONE');
  while (pending.length > 0) {
    Utilities.sleep(POLL_MS);
    for (const i of pending) {
      const { jobId, location } = done[i].jobReference ?? {};
      done[i] = bigQuery().Jobs!.get(projectId, String(jobId), locationArg(location));
    }
    pending = pending.filter((i) => done[i].status?.state !== 'DONE');
  }
  for (const job of done) {
    const error = job.status?.errorResult;
    if (error) throw new BigQueryJobError(`BigQuery: ${error.message ?? 'the job failed'}`, error.reason ?? null);
  }
  return done;
}
