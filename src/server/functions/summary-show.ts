/**
 * PROFIT_SUMMARY's optional `show`: what one period's metric answers. Omitted: the number, with a
 * note in the cell beside it when there is one (another currency, a period cut by the plan's
 * history, a future period). "value": the number alone, always one cell — for formulas placed side
 * by side, where a note would spill into the next formula and Sheets would show #REF! ("Array
 * result was not expanded because it would overwrite data") instead of the number. "note": that
 * note alone ('' when none), for a row of notes where it has room. The same answer cut, not
 * another request.
 */
import { FormulaError } from './args';
import type { Table } from './tables';

export type SummaryShow = 'both' | 'value' | 'note';

const FN = 'PROFIT_SUMMARY';

/** The show argument, checked before any request; a table (no metric) or a column of periods takes none. */
export function summaryShowArgument(value: unknown, metric: unknown, column: boolean): SummaryShow {
  if (value === undefined || value === null || value === '') return 'both';
  const show = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (show !== 'value' && show !== 'note') throw new FormulaError(FN, 'show must be "value" or "note" (or left out)');
  if (column) throw new FormulaError(FN, 'show is for one period; a column of periods answers each with its reason');
  if (metric === undefined || metric === null || metric === '')
    throw new FormulaError(FN, 'show needs a metric, e.g. PROFIT_SUMMARY(start, end, "net_profit", "value")');
  return show;
}

/** The one-cell answer [[value]] or [[value, note]] as `show` asks for it. */
export function shownSummary(answer: Table, show: SummaryShow): Table {
  if (show === 'both') return answer;
  const [value = '', note = ''] = answer[0] ?? [];
  return [[show === 'value' ? value : note]];
}
