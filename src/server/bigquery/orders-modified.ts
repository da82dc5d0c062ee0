/**
 * Rows of the orders table a run's statement modified that the run's counts do not show: a row
 * held twice left once (reconcile.ts). Connected Sheets refresh after such a run as after one that
 * added, changed or removed orders: the pivot sums every row, so a copy removed must leave it too.
 */
const modified = new WeakSet<object>();

export function noteOrdersRowsModified(run: object): void {
  modified.add(run);
}

export function ordersRowsModified(run: object): boolean {
  return modified.has(run);
}
