/**
 * The schedule owner's user properties are full: Google gives each user 500 KB of properties for
 * the add-on, shared by every spreadsheet they schedule (developers.google.com/apps-script/guides/
 * services/quotas, "Properties value size ... 500kB / property store"), and refuses a write past it
 * with "You have exceeded the property storage quota". The user never sees those words: this says
 * what the add-on keeps there and what to do.
 */
export class OwnerCopyFullError extends Error {
  readonly code = 'owner_store_full';
  readonly userMessage =
    'The scheduled sync could not keep its progress: Google started it without this spreadsheet open, so it keeps its state in your Google account’s storage for Merchant Analytics (500 KB, shared by every spreadsheet you schedule), and that storage is full. Open this spreadsheet (a sync with it open keeps its state in the spreadsheet), and turn off the automatic sync of spreadsheets you no longer use: each keeps a copy there.';

  constructor() {
    super();
    this.message = this.userMessage;
    this.name = 'OwnerCopyFullError';
  }
}

/** Google's refusal of a property write past the store's 500 KB. */
export function isPropertyStoreFull(e: unknown): boolean {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  return /exceeded the property storage quota/i.test(message);
}
