import { randomBytes } from 'node:crypto';
import type { RuntimeClock } from './clock.js';
import { CacheStore } from './services/cache.js';
import { PropertyStore } from './services/properties.js';
import type { SpreadsheetModule, WorkbookLike } from './spreadsheet-adapter.js';

/**
 * A spreadsheet made with File → Make a copy: a new id, the same sheets (values, formats,
 * developer metadata) and — the stricter reading — the same document properties. Google's
 * PropertiesService page (developers.google.com/apps-script/reference/properties/properties-service)
 * says document properties belong to the document and says nothing about copies; the stricter
 * reading for a security question is that they travel with it, so an add-on must not trust what a
 * copy carries. Triggers are not copied (installable triggers belong to the document and user that
 * made them: guides/triggers/installable); the document cache starts empty (a cache is not file
 * content). The user who made the copy owns it: a custom function's getUserProperties() there is
 * theirs (guides/sheets/functions: "the spreadsheet owner's").
 */
export interface LocalDocument {
  workbook: WorkbookLike;
  properties: PropertyStore;
  cache: CacheStore;
  owner: string;
}

export function copyDocument(
  original: LocalDocument,
  module: SpreadsheetModule,
  owner: string,
  clock: RuntimeClock,
): LocalDocument {
  const state = JSON.parse(JSON.stringify(original.workbook.toJSON())) as Record<string, unknown>;
  const workbook = module.Workbook.fromJSON({ ...state, id: randomBytes(33).toString('base64url').slice(0, 44) });
  return {
    workbook,
    properties: PropertyStore.fromJSON(original.properties.toJSON()),
    cache: new CacheStore(clock),
    owner,
  };
}
