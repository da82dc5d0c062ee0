/**
 * The spreadsheet's document properties are full: Google gives each store 500 KB
 * (developers.google.com/apps-script/guides/services/quotas, "Properties value size ... 500kB /
 * property store") and refuses a write past it with "You have exceeded the property storage
 * quota". The user never sees those words: this says what is full, what the add-on did, what to do.
 */
export class DocumentStoreFullError extends Error {
  readonly code = 'document_store_full';
  readonly userMessage =
    'The sync stopped because this spreadsheet’s storage for add-ons is full (Google keeps 500 KB per spreadsheet for an add-on’s settings and progress). Rows written so far are kept, and the sync’s progress stays where it was last saved, so the next run continues from there. Remove other add-ons’ data from this spreadsheet or uninstall add-ons it no longer needs; the sync continues once there is room.';

  constructor() {
    super();
    this.message = this.userMessage;
    this.name = 'DocumentStoreFullError';
  }
}

/** What the Sync log says when the day sums were dropped to make room (the run went on without them). */
export const DAY_SUMS_DROPPED_NOTE =
  'This spreadsheet’s storage for add-ons was full, so the sync dropped the Orders day totals it keeps to speed up the checks; the next check reads the Orders sheet whole instead.';
