/**
 * The store's time zone as the last sync saved it in the sync state's meta (the zone it computed
 * the Orders sheet's placed_date in): one document property read, no request; null before the
 * first sync. Formulas and the dashboard's periods judge "today" in it (the API's days are
 * store-local, spec 2.9).
 */
import { documentProperties } from '../platform/properties';
import { readStateValue } from './sync-state';

export function savedStoreTimeZone(): string | null {
  return readStateValue(documentProperties(), 'meta').storeTimeZone || null;
}
