/** How a formula's failure reaches its cell: one message, prefixed by the function, that says what to do. */
import { FormulaError } from './args';
import type { Table } from './tables';
import { isPropertiesDailyLimit, PROPERTIES_DAILY_LIMIT_MESSAGE } from '../platform/properties-quota';

/** Typed failures (API, connection, set-up) carry a userMessage: show that, prefixed by the function. */
export function withUserMessages(fn: string, body: () => Table): Table {
  try {
    return body();
  } catch (e) {
    if (e instanceof FormulaError) throw e;
    if (isPropertiesDailyLimit(e)) throw new Error(`${fn}: ${PROPERTIES_DAILY_LIMIT_MESSAGE}`);
    const userMessage =
      e !== null && typeof e === 'object' && typeof (e as { userMessage?: unknown }).userMessage === 'string'
        ? (e as { userMessage: string }).userMessage
        : null;
    if (userMessage !== null) throw new Error(`${fn}: ${userMessage}`);
    throw e;
  }
}
