/**
 * Saving the destination setting. To BigQuery from sheets that hold orders: a move (switch-*.ts)
 * copies what they hold, and the feed keeps its checkpoint, continuing from it into BigQuery once
 * the copy is done. To BigQuery from empty sheets, or back to the sheets (when the store fits,
 * switch-back.ts): the orders feed starts afresh, so the new destination gets every order.
 */
import { currentSpreadsheet } from '../platform/context';
import { documentProperties } from '../platform/properties';
import { LINE_ITEMS, ORDERS } from '../sheets/schema';
import { SyncStateStore } from '../state/sync-state';
import {
  DESTINATION_PROPERTY_KEY,
  destinationText,
  parseDestination,
  readDestination,
  type Destination,
} from './destination-setting';
import { checkSheetsFit } from './switch-back';
import { startSwitch, SWITCH_PROPERTY_KEY } from './switch-record';

/** The setting as stored now (one property read). */
export function storedDestination(): Destination {
  return readDestination(documentProperties().getProperty(DESTINATION_PROPERTY_KEY));
}

/** Whether the Orders or Line items sheet holds a row below its header. */
function sheetsHoldOrders(): boolean {
  const spreadsheet = currentSpreadsheet('reading where the orders are');
  return [ORDERS.sheetName, LINE_ITEMS.sheetName].some((name) => {
    const sheet = spreadsheet.getSheetByName(name);
    return sheet !== null && sheet.getLastRow() > 1;
  });
}

/** Checks the request, then saves it; returns the destination saved. */
export function setDestination(request: unknown): Destination {
  const chosen = parseDestination(request);
  const before = storedDestination();
  if (destinationText(before) === destinationText(chosen)) return chosen;
  const properties = documentProperties();
  if (chosen.kind === 'sheets' && before.kind === 'bigquery') checkSheetsFit(before);
  const state = new SyncStateStore(properties);
  const moving =
    chosen.kind === 'bigquery' &&
    before.kind === 'sheets' &&
    state.get('orders').watermark !== null &&
    sheetsHoldOrders();
  if (moving) properties.setProperty(SWITCH_PROPERTY_KEY, JSON.stringify(startSwitch(chosen, Date.now())));
  else {
    // A move under way to another destination is abandoned: the sheets still hold every row it was copying.
    properties.deleteProperty(SWITCH_PROPERTY_KEY);
    state.update('orders', { watermark: null, caughtUp: false, feedFrom: null });
  }
  properties.setProperty(DESTINATION_PROPERTY_KEY, destinationText(chosen));
  return chosen;
}
