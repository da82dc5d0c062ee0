/**
 * Google's daily limit on Properties calls (developers.google.com/apps-script/guides/services/quotas:
 * "Properties read/write: 50,000 / day" for consumer accounts, 500,000 for Workspace), counted per
 * user over a rolling 24 hours. Past it every PropertiesService call throws Google's raw
 * "Service invoked too many times for one day: properties.", which says nothing a finance user can
 * act on: this says what happened and that it frees by itself.
 */
const PROPERTIES_DAILY_LIMIT = /Service invoked too many times for one day: properties/;

const LIMIT_REACHED =
  'Google’s daily limit on saved settings for your Google account was reached (Apps Script counts every read and write of the add-on’s settings). ';

export const PROPERTIES_DAILY_LIMIT_MESSAGE =
  LIMIT_REACHED +
  'The add-on works again as the limit frees, over the next 24 hours; nothing is lost and there is nothing to fix.';

/**
 * A formula cell keeps its error after the limit frees: Sheets recalculates a custom function only
 * when its formula or a cell it references changes (developers.google.com/apps-script/guides/sheets/functions),
 * so the cell says how to get its figure back.
 */
export const PROPERTIES_DAILY_LIMIT_FORMULA_MESSAGE =
  LIMIT_REACHED +
  'It frees over the next 24 hours and nothing is lost, but this cell keeps this message until it recalculates: once the limit frees, choose Extensions → Merchant Analytics → Refresh formulas.';

export function isPropertiesDailyLimit(error: unknown): boolean {
  return error instanceof Error && PROPERTIES_DAILY_LIMIT.test(error.message);
}

/**
 * Runs `body`; Google's daily-limit refusal is thrown again as the message above (after `lead`,
 * which says what stopped), any other error as it was.
 */
export function explainingDailyLimit<T>(body: () => T, lead = ''): T {
  try {
    return body();
  } catch (error) {
    if (isPropertiesDailyLimit(error)) throw new Error(`${lead}${PROPERTIES_DAILY_LIMIT_MESSAGE}`);
    throw error;
  }
}
