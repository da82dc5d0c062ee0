/**
 * Which spreadsheet a connection item the document holds (the connection record, the shared
 * access token) was written for. Document properties may travel with File → Make a copy (Google's
 * PropertiesService page does not say; the stricter reading is that they do), so each item names
 * its spreadsheet and an item naming another one is a copy's: never used, never sent anywhere.
 */
import { currentSpreadsheetId } from '../platform/context';

/** 'here': written for this spreadsheet; 'copy': for another one; 'unbound': by a version that wrote no id. */
export type Binding = 'here' | 'copy' | 'unbound';

export function bindingOf(spreadsheetId: unknown): Binding {
  if (typeof spreadsheetId !== 'string' || spreadsheetId === '') return 'unbound';
  return spreadsheetId === currentSpreadsheetId() ? 'here' : 'copy';
}

/** The id an item written now is bound to (null only where no spreadsheet is known: nothing is then written). */
export function bindingId(): string | null {
  return currentSpreadsheetId();
}
