/**
 * Sidebar → Columns: the choice is saved in the sync state; the next sync brings the sheets in line
 * (the workbook's layout follow, LayoutFollower) and fills added columns for rows already there.
 */
import { documentProperties } from '../platform/properties';
import { CHOOSABLE_TABLES, parseTableChoice, type ChoosableTable, type ColumnChoice } from '../sheets/column-choice';
import { SyncStateStore } from '../state/sync-state';
import { FixRequestError } from './request-error';

export class ColumnChoiceError extends FixRequestError {
  constructor(userMessage: string) {
    super('invalid_columns', userMessage);
    this.name = 'ColumnChoiceError';
  }
}

/** Checks every table's choice before saving any (a bad one changes nothing). */
export function setColumnChoice(request: unknown): void {
  if (request === null || typeof request !== 'object')
    throw new ColumnChoiceError('Choose the columns for Orders and Line items; nothing was changed.');
  const choice: ColumnChoice = {};
  for (const table of CHOOSABLE_TABLES) {
    const name = table.sheetName as ChoosableTable;
    const raw = (request as Record<string, unknown>)[name];
    if (raw === undefined) continue;
    try {
      choice[name] = parseTableChoice(table, raw);
    } catch (e) {
      throw new ColumnChoiceError(`${(e as Error).message} Nothing was changed.`);
    }
  }
  const state = new SyncStateStore(documentProperties());
  const stored = state.reload('columns');
  state.save('columns', { ...stored, choice: { ...stored.choice, ...choice } });
}
