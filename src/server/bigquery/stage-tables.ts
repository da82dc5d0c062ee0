/**
 * The add-on's stage tables (a flush's, the move's, the vanished orders' ids) live for one use: each
 * is made with tables.insert and an expirationTime, so BigQuery deletes one an ended execution left
 * behind ("Managing tables", Update a table's expiration time; REST reference "tables",
 * expirationTime: "Expired tables will be deleted and their storage reclaimed"), and the add-on
 * deletes it itself once used. The user's dataset holds the add-on's two tables, and a stage table
 * only while a write runs or for at most STAGE_LIFETIME_MS after one was cut short.
 */
import { alreadyExists, bigQuery, notFound } from './service';

/** Far longer than an execution (6 minutes; 30 on some Workspace editions), short enough that a leftover goes the same day. */
export const STAGE_LIFETIME_MS = 60 * 60 * 1000;

export interface StageTable {
  projectId: string;
  datasetId: string;
  tableId: string;
  schema: GoogleAppsScript.BigQuery.Schema.TableSchema;
}

function insertStage(stage: StageTable): void {
  const { projectId, datasetId, tableId, schema } = stage;
  bigQuery().Tables!.insert(
    {
      tableReference: { projectId, datasetId, tableId },
      schema,
      expirationTime: String(Date.now() + STAGE_LIFETIME_MS),
    },
    projectId,
    datasetId,
  );
}

/** Makes the stage table empty and expiring; one an ended execution left is replaced, so its expiration counts from now. */
export function createStageTable(stage: StageTable): void {
  try {
    insertStage(stage);
  } catch (e) {
    if (!alreadyExists(e)) throw e;
    dropStageTable(stage);
    insertStage(stage);
  }
}

/** Deletes the stage table; one already gone (expired, or deleted by the user) is fine. */
export function dropStageTable(stage: Pick<StageTable, 'projectId' | 'datasetId' | 'tableId'>): void {
  try {
    bigQuery().Tables!.remove(stage.projectId, stage.datasetId, stage.tableId);
  } catch (e) {
    if (!notFound(e)) throw e;
  }
}

/**
 * `use` run with the stage tables made, and the tables deleted after it, whether it wrote or threw
 * (or a table could not be made).
 * A delete that fails does not fail the write (its rows are in; the table expires on its own), nor
 * hide the write's own error.
 */
export function withStageTables<T>(stages: readonly StageTable[], use: () => T): T {
  try {
    for (const stage of stages) createStageTable(stage);
    return use();
  } finally {
    for (const stage of stages)
      try {
        dropStageTable(stage);
      } catch {
        // Left to its expirationTime.
      }
  }
}
