/** Saving the destination setting: a change starts the orders feed afresh, so the new destination gets every order. */
import { documentProperties } from '../platform/properties';
import { SyncStateStore } from '../state/sync-state';
import {
  DESTINATION_PROPERTY_KEY,
  destinationText,
  parseDestination,
  readDestination,
  type Destination,
} from './destination-setting';

/** The setting as stored now (one property read). */
export function storedDestination(): Destination {
  return readDestination(documentProperties().getProperty(DESTINATION_PROPERTY_KEY));
}

/** Checks the request, then saves it; a different destination empties the orders watermark (the next run reads every order). */
export function setDestination(request: unknown): Destination {
  const chosen = parseDestination(request);
  const before = storedDestination();
  if (destinationText(before) === destinationText(chosen)) return chosen;
  documentProperties().setProperty(DESTINATION_PROPERTY_KEY, destinationText(chosen));
  new SyncStateStore(documentProperties()).update('orders', { watermark: null, caughtUp: false, feedFrom: null });
  return chosen;
}
