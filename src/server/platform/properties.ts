import { boundSpreadsheet, MissingContextError } from './context';
import { ownerCopyOfDocumentState } from './owner-copy';

/**
 * The document's properties, obtained once per execution: every PropertiesService call is a
 * billed service call (apps-script-cost-model.md), and each execution starts with fresh module
 * state. Without a document (a scheduled run Google started without it) they cannot be read:
 * the run works on its owner's copy of the document state (owner-copy.ts).
 */
let documentStore: GoogleAppsScript.Properties.Properties | null = null;

export function documentProperties(): GoogleAppsScript.Properties.Properties {
  if (documentStore) return documentStore;
  const real = realDocumentProperties();
  if (real) return (documentStore = real);
  const bound = boundSpreadsheet();
  if (bound) return (documentStore = ownerCopyOfDocumentState(bound));
  throw new MissingContextError('the document properties', 'this execution has no document');
}

/** The real document properties, or null in an execution without a document. */
let realKnown = false;
let realStore: GoogleAppsScript.Properties.Properties | null = null;

export function realDocumentProperties(): GoogleAppsScript.Properties.Properties | null {
  if (!realKnown) {
    realStore = PropertiesService.getDocumentProperties();
    realKnown = true;
  }
  return realStore;
}
