/**
 * The dataset and the two tables, created when missing: an insert that finds one there already
 * (409, "Already Exists") is taken as done, so a second run creates nothing. Once made, the run
 * remembers it with the sync state and makes no call for them again; a load or MERGE that finds a
 * table gone forgets it, and the next run creates it again.
 */
import { documentProperties } from '../platform/properties';
import type { JobContext } from '../sync/job-context';
import type { BigQueryDestination } from './destination-setting';
import { alreadyExists, bigQuery } from './service';
import { schemaResource, WAREHOUSE_TABLES } from './table-schemas';

export const TABLES_MADE_KEY = 'ma.sync.bigqueryTables';

/** The stand-in and the add-on's default: BigQuery's US multi-region ("Dataset locations"). */
const LOCATION = 'US';

export const tablesMark = (destination: BigQueryDestination): string =>
  `${destination.projectId}.${destination.datasetId}`;

export function createTables(destination: BigQueryDestination): void {
  const { projectId, datasetId } = destination;
  const bq = bigQuery();
  try {
    bq.Datasets!.insert({ datasetReference: { projectId, datasetId }, location: LOCATION }, projectId);
  } catch (e) {
    if (!alreadyExists(e)) throw e;
  }
  for (const table of WAREHOUSE_TABLES) {
    try {
      bq.Tables!.insert(
        {
          tableReference: { projectId, datasetId, tableId: table.tableId },
          schema: schemaResource(table),
          timePartitioning: { type: 'DAY', field: 'placed_day' },
          clustering: { fields: table.clustering },
        },
        projectId,
        datasetId,
      );
    } catch (e) {
      if (!alreadyExists(e)) throw e;
    }
  }
}

/** The tables this run's flushes were made sure of (the state's mark read at the start, or made now). */
let tablesReady: string | null = null;
/** True once a job found a table gone in this execution: the mark read at the start no longer holds. */
let tablesGone = false;

export function ensureTables(ctx: JobContext, destination: BigQueryDestination): void {
  const mark = tablesMark(destination);
  if (tablesReady === mark) return;
  if (tablesGone || ctx.state.readAtStart[TABLES_MADE_KEY] !== mark) {
    createTables(destination);
    documentProperties().setProperty(TABLES_MADE_KEY, mark);
  }
  tablesReady = mark;
}

export function forgetTables(): void {
  tablesReady = null;
  tablesGone = true;
  documentProperties().deleteProperty(TABLES_MADE_KEY);
}
