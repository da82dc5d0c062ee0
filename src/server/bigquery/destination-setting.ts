/**
 * Where Orders and Line items go: the sheets (the default, what every earlier version did) or the
 * user's BigQuery dataset. A document-level setting the sidebar writes, kept beside the sync state
 * (the same `ma.sync.` properties the column choice lives in) and read by a run from the state's
 * one whole read, so it costs a run no property call.
 */
import { FixRequestError } from '../sync/request-error';

export const DESTINATION_PROPERTY_KEY = 'ma.sync.destination';

export interface BigQueryDestination {
  kind: 'bigquery';
  projectId: string;
  datasetId: string;
}

export type Destination = { kind: 'sheets' } | BigQueryDestination;

export const SHEETS_DESTINATION: Destination = { kind: 'sheets' };

/**
 * A Cloud project id (cloud.google.com/resource-manager/docs/creating-managing-projects, "Before
 * you begin"): 6 to 30 lowercase letters, digits or hyphens, starting with a letter, not ending
 * with a hyphen, and not containing the restricted strings "google" or "ssl". Domain-scoped ids
 * (example.com:project) are older projects no one can create any more: refused, the stricter reading.
 */
const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const RESTRICTED_IN_PROJECT_ID = ['google', 'ssl'];

/**
 * A dataset id (cloud.google.com/bigquery/docs/datasets, "Name datasets"): up to 1,024 letters,
 * digits and underscores, case-sensitive. One that begins with an underscore is a hidden dataset
 * ("Hidden datasets"): the console does not list it, so a finance user could not find their
 * orders: refused.
 */
const DATASET_ID = /^[A-Za-z0-9][A-Za-z0-9_]{0,1023}$/;

export class DestinationSettingError extends FixRequestError {
  constructor(userMessage: string) {
    super('invalid_destination', userMessage);
    this.name = 'DestinationSettingError';
  }
}

/** The problem with a project id in the user's words, or null when BigQuery would take it. */
export function projectIdProblem(projectId: string): string | null {
  if (!PROJECT_ID.test(projectId))
    return 'A Cloud project id is 6 to 30 lowercase letters, digits or hyphens, starts with a letter and does not end with a hyphen (the id, not the project’s name).';
  const restricted = RESTRICTED_IN_PROJECT_ID.find((word) => projectId.indexOf(word) >= 0);
  return restricted ? `A Cloud project id cannot contain “${restricted}”.` : null;
}

/** The problem with a dataset id in the user's words, or null when BigQuery would take it. */
export function datasetIdProblem(datasetId: string): string | null {
  if (datasetId.charAt(0) === '_')
    return 'A dataset whose name begins with an underscore is hidden in BigQuery: choose a name that starts with a letter or digit.';
  if (!DATASET_ID.test(datasetId))
    return 'A BigQuery dataset name has only letters, digits and underscores (no spaces or hyphens), at most 1,024 of them.';
  return null;
}

/** The sidebar's request ({kind: 'sheets'} or {kind: 'bigquery', projectId, datasetId}), checked; throws the user's fix. */
export function parseDestination(request: unknown): Destination {
  const r = request !== null && typeof request === 'object' ? (request as Record<string, unknown>) : {};
  if (r.kind === 'sheets') return SHEETS_DESTINATION;
  if (r.kind !== 'bigquery')
    throw new DestinationSettingError('Choose where orders go: the sheets or BigQuery. Nothing was changed.');
  const projectId = typeof r.projectId === 'string' ? r.projectId.trim() : '';
  const datasetId = typeof r.datasetId === 'string' ? r.datasetId.trim() : '';
  const problem = projectIdProblem(projectId) ?? datasetIdProblem(datasetId);
  if (problem) throw new DestinationSettingError(`${problem} Nothing was changed.`);
  return { kind: 'bigquery', projectId, datasetId };
}

/** The stored setting; anything unreadable is the sheets (a damaged value never sends orders elsewhere). */
export function readDestination(stored: string | null | undefined): Destination {
  if (!stored) return SHEETS_DESTINATION;
  try {
    const value = JSON.parse(stored) as unknown;
    const r = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    if (
      r.kind === 'bigquery' &&
      typeof r.projectId === 'string' &&
      typeof r.datasetId === 'string' &&
      projectIdProblem(r.projectId) === null &&
      datasetIdProblem(r.datasetId) === null
    )
      return { kind: 'bigquery', projectId: r.projectId, datasetId: r.datasetId };
  } catch {
    // Unreadable: the sheets.
  }
  return SHEETS_DESTINATION;
}

export function destinationText(destination: Destination): string {
  return JSON.stringify(destination);
}
