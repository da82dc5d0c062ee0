import { refuseInCell } from '../platform/cell-guard';
import { setDestination, storedDestination } from '../bigquery/destination-store';
import { destinationScopes } from '../bigquery/destination-consent';
import type { Destination } from '../bigquery/destination-setting';
import { bigQueryWriterFor, connectedSheetsAfterJobs, stepSkippedForDestination } from '../bigquery/destination';
import { ordersTableOfFormulas } from '../bigquery/formula-reach';
import { deleteVanishedOrders } from '../bigquery/reconcile';
import { runBigQueryReconcile } from '../bigquery/reconcile-pass';
import { useOrdersElsewhere } from '../functions/orders-elsewhere';
import { bigQueryTieout } from '../bigquery/tieout';
import { useOrdersDestination } from '../sync/orders-destination';
import { runSwitchCopy } from '../bigquery/switch-copy';
import { freeSheetsAfterTieout } from '../bigquery/switch-free';

// When the bundle loads (every execution): a run whose orders go to BigQuery writes them there.
useOrdersDestination({
  writer: bigQueryWriterFor,
  skipsStep: stepSkippedForDestination,
  tieout: bigQueryTieout,
  dayListed: deleteVanishedOrders,
  reconcile: runBigQueryReconcile,
  afterJobs: connectedSheetsAfterJobs,
  beforeJobs: runSwitchCopy,
  afterTieout: freeSheetsAfterTieout,
  scopesNeeded: () => destinationScopes(storedDestination()),
});
// ...and a formula says so where it would read the Orders sheet.
useOrdersElsewhere(ordersTableOfFormulas);

/**
 * Sidebar → where orders go: the sheets, or BigQuery (the user's Cloud project and dataset; the
 * add-on creates its tables there at the next sync). A new destination gets every order: the next
 * sync reads the store's orders from the start.
 * @param {Object} request {"kind": "sheets"} or {"kind": "bigquery", "projectId": "...", "datasetId": "..."}
 * @return {Object} the destination saved
 */
export function setOrdersDestination(request: unknown): Destination {
  refuseInCell('setOrdersDestination');
  return setDestination(request);
}
