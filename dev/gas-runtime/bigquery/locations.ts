/**
 * Dataset and job locations ("BigQuery locations": https://cloud.google.com/bigquery/docs/locations).
 * A dataset lives in one location, a multi-region (US, EU) or a single region (europe-west3); a job
 * runs where the datasets it reads and writes are, and one that names no location is placed there
 * ("Specify locations": "If you don't specify the location, BigQuery determines the location from
 * the datasets referenced in the request"). A job in a single region is found by jobs.get and
 * jobs.getQueryResults only when the request names its location (REST reference v2, jobs.get and
 * jobs.getQueryResults, parameter `location`: "You must specify the location to run the job for the
 * following scenarios: If the location to run a job is not in the us or the eu multi-regional
 * location; If the job's location is in a single region (for example, us-central1)"): the stand-in
 * answers such a request "Not found", as Google does.
 */
import { BigQueryApiError } from './errors.js';
import { LOCATION } from './limits.js';
import { datasetKey, type Warehouse } from './warehouse.js';

const MULTI_REGIONS = new Set(['US', 'EU']);
/** A region's name: lowercase words and a number ("us-central1", "europe-west3", "asia-northeast1"). */
const REGION = /^[a-z]+(-[a-z]+)+\d+$/;

/** The location as BigQuery spells it (multi-regions upper case, regions lower case); throws on one it does not know. */
export function locationOf(method: string, raw: unknown): string {
  if (raw === undefined || raw === null) return LOCATION;
  const text = String(raw);
  if (MULTI_REGIONS.has(text.toUpperCase())) return text.toUpperCase();
  if (REGION.test(text.toLowerCase())) return text.toLowerCase();
  throw new BigQueryApiError(method, `Invalid value for location: ${text} is not a valid value`, 400);
}

export const isMultiRegion = (location: string): boolean => MULTI_REGIONS.has(location);

/** The location of a dataset; US (the stand-in's default) for one that does not exist (the job then fails on it). */
export function datasetLocation(warehouse: Warehouse, projectId: string, datasetId: string): string {
  return warehouse.datasets.get(datasetKey(projectId, datasetId))?.location ?? LOCATION;
}

/**
 * Where a job runs: the location it names, else its datasets' one. Datasets in two locations
 * cannot be read by one job ("Not found: Dataset … was not found in location …").
 */
export function jobLocation(
  warehouse: Warehouse,
  method: string,
  named: unknown,
  datasets: ReadonlyArray<{ projectId: string; datasetId: string }>,
): string {
  const existing = datasets.filter((d) => warehouse.datasets.has(datasetKey(d.projectId, d.datasetId)));
  const location =
    named !== undefined && named !== null
      ? locationOf(method, named)
      : existing.length > 0
        ? datasetLocation(warehouse, existing[0].projectId, existing[0].datasetId)
        : LOCATION;
  const elsewhere = existing.find((d) => datasetLocation(warehouse, d.projectId, d.datasetId) !== location);
  if (elsewhere)
    throw new BigQueryApiError(
      method,
      `Not found: Dataset ${elsewhere.projectId}:${elsewhere.datasetId} was not found in location ${location}`,
      404,
    );
  return location;
}

/** True when a jobs.get / getQueryResults request naming `requested` (or none) finds a job in `location`. */
export function jobFoundAt(location: string, requested: unknown): boolean {
  if (requested === undefined || requested === null || requested === '') return isMultiRegion(location);
  return String(requested).toLowerCase() === location.toLowerCase();
}
