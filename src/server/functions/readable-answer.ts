/** A formula's answer from the service, refused in words when it is nested too deep to read (the value depth check). */
import { MAX_VALUE_DEPTH, nestedDeeperThan } from '../api/value-depth';
import { FormulaError } from './args';

/** The value itself, or a FormulaError before any recursive walk (the answer cache's JSON.stringify) overflows on it. */
export function readableAnswer<T>(fn: string, value: T): T {
  if (nestedDeeperThan(value, MAX_VALUE_DEPTH)) {
    throw new FormulaError(
      fn,
      `Merchant Analytics sent a value the add-on cannot read (nested more than ${MAX_VALUE_DEPTH} levels deep); try again later, and tell the store's Merchant Analytics administrator if it persists`,
    );
  }
  return value;
}
