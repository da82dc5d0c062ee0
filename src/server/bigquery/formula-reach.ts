/** What formulas learn of a BigQuery destination (functions/orders-elsewhere.ts): the orders table's name. */
import { documentProperties } from '../platform/properties';
import { DESTINATION_PROPERTY_KEY, readDestination } from './destination-setting';
import { ORDERS_TABLE } from './table-schemas';

/** The orders table as project.dataset.orders when this spreadsheet's orders go to BigQuery, else null (one property read). */
export function ordersTableOfFormulas(): string | null {
  const destination = readDestination(documentProperties().getProperty(DESTINATION_PROPERTY_KEY));
  return destination.kind === 'bigquery'
    ? `${destination.projectId}.${destination.datasetId}.${ORDERS_TABLE.tableId}`
    : null;
}
