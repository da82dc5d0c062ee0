/**
 * The store's currency as the last sync saved it in the sync state's meta: one document property
 * read, no request; null before the first sync. Cells the add-on fills with store-level amounts
 * (the dashboard's KPIs) are formatted in it, as the managed sheets' amount columns are.
 */
import { documentProperties } from '../platform/properties';
import { readStateValue } from './sync-state';

export function savedStoreCurrency(): string | null {
  return readStateValue(documentProperties(), 'meta').storeCurrency || null;
}
