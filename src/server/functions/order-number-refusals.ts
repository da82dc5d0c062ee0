/**
 * What PROFIT_ORDER says when a display number gives no single order: the index not written yet,
 * damaged by hand, without the number, or the number shown on several orders.
 */
import { FormulaError } from './args';
import type { NumberLookup } from './order-number-lookup';
import { ROW_INDEX_TITLE } from '../sheets/row-index-sheet';

/** What to do when a display number finds no order: sync, or give the id. */
export function numberMissing(number: string, found: NumberLookup | null): string {
  const missing = found !== null && 'missing' in found ? found.missing : 'not-found';
  if (missing === 'no-index')
    return `${number} is an order number, and no sync has written the index of order numbers yet: run Sync now, or give the order id (ord_…)`;
  if (missing === 'too-long') return 'this number is too long to look up: give the order id (ord_…)';
  if (missing === 'damaged')
    return `the index of order numbers (the hidden sheet "${ROW_INDEX_TITLE}") was changed by hand, so ${number} cannot be looked up until the next sync rebuilds it: run Sync now, or give the order id (ord_…)`;
  return `no order numbered ${number} in the Orders sheet: run Sync now if it is new, or give the order id (ord_…)`;
}

/** A display number the store shows on more than one order: neither is picked. */
export function numberShared(number: string, ids: readonly string[]): FormulaError {
  return new FormulaError(
    'PROFIT_ORDER',
    `the store shows ${number} on ${ids.length} orders (${ids.join(', ')}): give the order id of the one you mean`,
  );
}
