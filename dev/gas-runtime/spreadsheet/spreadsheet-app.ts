/** The host-side SpreadsheetApp global for one execution. */
import type { ExecutionServiceContext, UiLog } from '../types';
import { hasDocument, permissionDenied } from '../types';
import type { Range } from './range';
import type { DocumentOpener, SpreadsheetScope } from './scope';
import { missingDocumentMessage } from '../document-access';
import type { Sheet } from './sheet';
import { Spreadsheet } from './spreadsheet';
import { Ui } from './ui';
import { enableExecution } from './data-source-execution.js';
import { DataSourceSpecBuilder, DataSourceType } from './data-source-spec.js';
import { DATA_SOURCE_ENUMS } from './data-source-enums.js';
import type { Workbook } from './workbook';

const NO_UI = 'Cannot call SpreadsheetApp.getUi() from this context.';

/**
 * Google returns null for the active document of an execution without one. Typed as the object so
 * host-side code (tests, tools), which always has the document, reads it without null checks.
 */
function noDocument<T>(): T {
  return null as unknown as T;
}

export class SpreadsheetApp {
  readonly DeveloperMetadataVisibility = { DOCUMENT: 'DOCUMENT', PROJECT: 'PROJECT' } as const;
  readonly DeveloperMetadataLocationType = {
    SPREADSHEET: 'SPREADSHEET',
    SHEET: 'SHEET',
    ROW: 'ROW',
    COLUMN: 'COLUMN',
    OBJECT: 'OBJECT',
  } as const;
  readonly Dimension = { ROWS: 'ROWS', COLUMNS: 'COLUMNS' } as const;
  readonly WrapStrategy = { WRAP: 'WRAP', OVERFLOW: 'OVERFLOW', CLIP: 'CLIP' } as const;
  readonly DataSourceType = DataSourceType;
  readonly DataExecutionState = DATA_SOURCE_ENUMS.DataExecutionState;
  readonly DataExecutionErrorCode = DATA_SOURCE_ENUMS.DataExecutionErrorCode;
  readonly PivotTableSummarizeFunction = DATA_SOURCE_ENUMS.PivotTableSummarizeFunction;
  readonly SheetType = DATA_SOURCE_ENUMS.SheetType;
  readonly DateTimeGroupingRuleType = DATA_SOURCE_ENUMS.DateTimeGroupingRuleType;

  constructor(private readonly scope: SpreadsheetScope) {}

  /** AuthMode.NONE has no access to the document (only menus). */
  private _document(method: string): Spreadsheet {
    if (this.scope.ctx.authMode === 'NONE') throw permissionDenied(`SpreadsheetApp.${method}`);
    return new Spreadsheet(this.scope);
  }

  /** Null in an execution without a document (the OAuth callback, a documentless trigger), as Google documents. */
  getActive(): Spreadsheet {
    if (!hasDocument(this.scope.ctx)) return noDocument();
    return this._document('getActive');
  }

  getActiveSpreadsheet(): Spreadsheet {
    if (!hasDocument(this.scope.ctx)) return noDocument();
    return this._document('getActiveSpreadsheet');
  }

  getActiveSheet(): Sheet {
    if (!hasDocument(this.scope.ctx)) return noDocument();
    return this._document('getActiveSheet').getActiveSheet();
  }

  getActiveRange(): Range {
    if (!hasDocument(this.scope.ctx)) return noDocument();
    return this._document('getActiveRange').getActiveSheet().getRange(1, 1);
  }

  /**
   * A local workbook by its id (with or without a document). One deleted or no longer shared with
   * the user fails with Google's "Document … is missing" (DocumentAccess); an id no
   * spreadsheet has fails as Google's does for it.
   */
  openById(id: string): Spreadsheet {
    if (this.scope.ctx.authMode !== 'FULL') throw permissionDenied('SpreadsheetApp.openById');
    const found = this.scope.open?.(String(id));
    if (found === 'missing') throw new Error(missingDocumentMessage(String(id)));
    if (id === this.scope.workbook.id) return new Spreadsheet(this.scope);
    if (found) return new Spreadsheet({ workbook: found, ctx: this.scope.ctx, ui: this.scope.ui });
    throw new Error('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
  }

  /** Connected Sheets: a builder of a data source spec (data-source-spec.ts). */
  newDataSourceSpec(): DataSourceSpecBuilder {
    return new DataSourceSpecBuilder();
  }

  /** "Turns data execution on for BigQuery data sources" — for this execution (data-source.ts). */
  enableBigQueryExecution(): void {
    enableExecution(this.scope.ctx, 'BIGQUERY');
  }

  enableAllDataSourcesExecution(): void {
    enableExecution(this.scope.ctx, 'ALL');
  }

  /** Applies the pending writes: the runtime's write buffer (SpreadsheetWriteBuffer) acts on this call. */
  flush(): void {}

  getUi(): Ui {
    if (this.scope.ctx.authMode === 'CUSTOM_FUNCTION' || !hasDocument(this.scope.ctx)) throw new Error(NO_UI);
    return new Ui(this.scope);
  }
}

export function createSpreadsheetApp(
  workbook: Workbook,
  ctx: ExecutionServiceContext,
  ui: UiLog,
  open?: DocumentOpener,
): SpreadsheetApp {
  return new SpreadsheetApp({ workbook, ctx, ui, ...(open ? { open } : {}) });
}
