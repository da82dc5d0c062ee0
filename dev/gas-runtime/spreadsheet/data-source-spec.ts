/**
 * SpreadsheetApp.newDataSourceSpec() and what it builds, after Google's reference pages
 * DataSourceSpecBuilder, BigQueryDataSourceSpecBuilder, DataSourceSpec and BigQueryDataSourceSpec
 * (developers.google.com/apps-script/reference/spreadsheet/…): a BigQuery spec is either a raw
 * query or a table (table project, dataset, table), billed to `projectId`. Parameters
 * (setParameterFromCell) are not modelled: refused with a message naming them.
 */

export interface BigQuerySpecRecord {
  projectId: string;
  rawQuery: string;
  tableProjectId: string;
  datasetId: string;
  tableId: string;
}

const EMPTY: BigQuerySpecRecord = { projectId: '', rawQuery: '', tableProjectId: '', datasetId: '', tableId: '' };

export const DataSourceType = {
  DATA_SOURCE_TYPE_UNSUPPORTED: 'DATA_SOURCE_TYPE_UNSUPPORTED',
  BIGQUERY: 'BIGQUERY',
  LOOKER: 'LOOKER',
} as const;

function notModelled(what: string): Error {
  return new Error(`Unsupported by the local runtime: ${what} (data source parameters are not modelled)`);
}

export class BigQueryDataSourceSpec {
  static gasName = 'BigQueryDataSourceSpec';
  constructor(readonly _record: BigQuerySpecRecord) {}

  copy(): BigQueryDataSourceSpecBuilder {
    return new BigQueryDataSourceSpecBuilder({ ...this._record });
  }
  getProjectId(): string {
    return this._record.projectId;
  }
  getRawQuery(): string {
    return this._record.rawQuery;
  }
  getTableProjectId(): string {
    return this._record.tableProjectId;
  }
  getDatasetId(): string {
    return this._record.datasetId;
  }
  getTableId(): string {
    return this._record.tableId;
  }
  getParameters(): unknown[] {
    return [];
  }
  getType(): string {
    return DataSourceType.BIGQUERY;
  }
}

/** DataSourceSpec: the spec of any type; asBigQuery() gives the BigQuery one. */
export class DataSourceSpec {
  static gasName = 'DataSourceSpec';
  constructor(readonly _record: BigQuerySpecRecord) {}

  asBigQuery(): BigQueryDataSourceSpec {
    return new BigQueryDataSourceSpec(this._record);
  }
  copy(): BigQueryDataSourceSpecBuilder {
    return new BigQueryDataSourceSpecBuilder({ ...this._record });
  }
  getParameters(): unknown[] {
    return [];
  }
  getType(): string {
    return DataSourceType.BIGQUERY;
  }
}

export class BigQueryDataSourceSpecBuilder {
  static gasName = 'BigQueryDataSourceSpecBuilder';
  constructor(private readonly record: BigQuerySpecRecord = { ...EMPTY }) {}

  /** Sets the billing project ("The ID of a BigQuery enabled GCP project with a billing account attached"). */
  setProjectId(projectId: string): BigQueryDataSourceSpecBuilder {
    this.record.projectId = String(projectId);
    return this;
  }
  /** A raw query; Google's page: "Sets the raw query string. Resets table related fields". */
  setRawQuery(rawQuery: string): BigQueryDataSourceSpecBuilder {
    Object.assign(this.record, { rawQuery: String(rawQuery), tableProjectId: '', datasetId: '', tableId: '' });
    return this;
  }
  /** Table fields reset the raw query, as setRawQuery resets them. */
  setTableProjectId(projectId: string): BigQueryDataSourceSpecBuilder {
    Object.assign(this.record, { tableProjectId: String(projectId), rawQuery: '' });
    return this;
  }
  setDatasetId(datasetId: string): BigQueryDataSourceSpecBuilder {
    Object.assign(this.record, { datasetId: String(datasetId), rawQuery: '' });
    return this;
  }
  setTableId(tableId: string): BigQueryDataSourceSpecBuilder {
    Object.assign(this.record, { tableId: String(tableId), rawQuery: '' });
    return this;
  }
  setParameterFromCell(): BigQueryDataSourceSpecBuilder {
    throw notModelled('BigQueryDataSourceSpecBuilder.setParameterFromCell');
  }
  removeParameter(): BigQueryDataSourceSpecBuilder {
    return this;
  }
  removeAllParameters(): BigQueryDataSourceSpecBuilder {
    return this;
  }
  getProjectId(): string {
    return this.record.projectId;
  }
  getRawQuery(): string {
    return this.record.rawQuery;
  }
  getTableProjectId(): string {
    return this.record.tableProjectId;
  }
  getDatasetId(): string {
    return this.record.datasetId;
  }
  getTableId(): string {
    return this.record.tableId;
  }
  getParameters(): unknown[] {
    return [];
  }
  getType(): string {
    return DataSourceType.BIGQUERY;
  }
  copy(): BigQueryDataSourceSpecBuilder {
    return new BigQueryDataSourceSpecBuilder({ ...this.record });
  }
  build(): DataSourceSpec {
    return new DataSourceSpec({ ...this.record });
  }
}

/** SpreadsheetApp.newDataSourceSpec(): a builder of no type until asBigQuery(). */
export class DataSourceSpecBuilder {
  static gasName = 'DataSourceSpecBuilder';

  asBigQuery(): BigQueryDataSourceSpecBuilder {
    return new BigQueryDataSourceSpecBuilder();
  }
  getType(): string {
    return DataSourceType.DATA_SOURCE_TYPE_UNSUPPORTED;
  }
  build(): DataSourceSpec {
    throw new Error('Invalid argument: a data source spec needs a type (call asBigQuery() first)');
  }
}

/** The spec of an object the script handed back (a DataSourceSpec or a BigQueryDataSourceSpec). */
export function specRecordOf(spec: unknown, method: string): BigQuerySpecRecord {
  if (spec instanceof DataSourceSpec || spec instanceof BigQueryDataSourceSpec) return { ...spec._record };
  throw new Error(`The parameters (${typeof spec}) don't match the method signature for ${method}.`);
}

/**
 * What a spec is missing, or null. Google's BigQueryDataSourceSpec page: a query spec or a table
 * spec, and the billing project always; the runtime refuses an incomplete spec at insert
 * (stricter: Google's wording is unknown, this is the runtime's).
 */
export function incompleteSpec(spec: BigQuerySpecRecord): string | null {
  if (!spec.projectId) return 'the billing project (setProjectId)';
  if (spec.rawQuery) return null;
  if (!spec.tableProjectId || !spec.datasetId || !spec.tableId)
    return 'a raw query or a table (setTableProjectId, setDatasetId, setTableId)';
  return null;
}
