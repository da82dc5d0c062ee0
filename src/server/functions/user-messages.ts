/** How a formula's failure reaches its cell: one message, prefixed by the function, that says what to do. */
import { ApiError } from '../api/api-error';
import { FormulaError } from './args';
import type { Table } from './tables';
import { isPropertiesDailyLimit, PROPERTIES_DAILY_LIMIT_FORMULA_MESSAGE } from '../platform/properties-quota';

/**
 * A custom-function cell recalculates only when its formula or a cell it references changes
 * (developers.google.com/apps-script/guides/sheets/functions): after a wait it must be asked again.
 */
export const REFRESH_AFTER_WAIT =
  'A formula does not recalculate by itself: then choose Extensions → Merchant Analytics → Refresh formulas.';

/** The service asked to wait (a rate limit, or the hourly allowance kept for syncs): the message says until when and what to do then. */
export class WaitFormulaError extends Error {
  constructor(fn: string, userMessage: string) {
    super(`${fn}: ${userMessage} ${REFRESH_AFTER_WAIT}`);
  }
}

/** Typed failures (API, connection, set-up) carry a userMessage: show that, prefixed by the function. */
export function withUserMessages(fn: string, body: () => Table): Table {
  try {
    return body();
  } catch (e) {
    if (e instanceof FormulaError || e instanceof WaitFormulaError) throw e;
    if (isPropertiesDailyLimit(e)) throw new Error(`${fn}: ${PROPERTIES_DAILY_LIMIT_FORMULA_MESSAGE}`);
    if (e instanceof ApiError && e.action === 'wait') throw new WaitFormulaError(fn, e.userMessage);
    const userMessage =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : null;
    if (userMessage !== null) throw new Error(`${fn}: ${userMessage}`);
    throw e;
  }
}
