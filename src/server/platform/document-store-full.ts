/**
 * The spreadsheet's document properties are full: Google gives each store 500 KB
 * (developers.google.com/apps-script/guides/services/quotas, "Properties value size ... 500kB /
 * property store") and refuses a write past it with "You have exceeded the property storage
 * quota". The user never sees those words: this says what is full, what the add-on did, what to do.
 */
import { utf8Bytes } from './property-size';

export class DocumentStoreFullError extends Error {
  readonly code = 'document_store_full';
  readonly userMessage =
    'The sync stopped because this spreadsheet’s storage for add-ons is full: Google keeps 500 KB per spreadsheet for Merchant Analytics’ settings and progress, used by this add-on alone, and it is full even without the day totals the add-on keeps to speed up the checks. Rows written so far are kept, and the sync’s progress stays where it was last saved, so the next run continues from there. Nothing in the sheets frees this storage: report this message to the add-on’s developer.';

  constructor() {
    super();
    this.message = this.userMessage;
    this.name = 'DocumentStoreFullError';
  }
}

/** What the Sync log says when the day sums were dropped to make room (the run went on without them). */
export const DAY_SUMS_DROPPED_NOTE =
  'This spreadsheet’s storage for add-ons was full, so the sync dropped the Orders day totals it keeps to speed up the checks; the next check reads the Orders sheet whole instead.';

/** Google's 500 KB per property store (keys and values, UTF-8). */
const STORE_BYTES = 500 * 1024;
/** Room an hourly run needs to keep its progress (its record, tie-out and checkpoints: a few KB). */
const RUN_ROOM_BYTES = 8 * 1024;

/**
 * The sidebar's banner while the store has less room than a run may need: a run refused there could
 * not record that it stopped (its record lives in the same store), so the sidebar says it from the
 * store's size, read whole with the rest of its state. Runs may still complete (an hourly run mostly
 * rewrites keys of the same size), so it warns rather than says the sync stopped. Document properties
 * are the script's own (guides/properties: "specific to the current document and script"): no other
 * add-on fills them, so the advice is to report, not to remove anything.
 */
export function storeFullProblem(all: Readonly<Record<string, string>>): {
  code: string;
  userMessage: string;
  action: 'fix_request';
  retryAt: null;
} | null {
  let bytes = 0;
  for (const key of Object.keys(all)) bytes += utf8Bytes(key) + utf8Bytes(all[key]!);
  if (bytes <= STORE_BYTES - RUN_ROOM_BYTES) return null;
  return {
    code: 'document_store_full',
    userMessage:
      'This spreadsheet’s storage for add-ons is full or nearly (Google keeps 500 KB per spreadsheet for Merchant Analytics’ settings and progress, used by this add-on alone). Syncs go on while they can: a run that cannot save everything first drops the day totals kept to speed up the checks (the next check reads the Orders sheet whole), and a run that still cannot save its progress stops and says so in the Sync log. Report this message to the add-on’s developer.',
    action: 'fix_request',
    retryAt: null,
  };
}
