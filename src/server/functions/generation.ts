/**
 * The formula generation: part of every cached formula answer's key. A sync that changed data and
 * "Refresh formulas" move it on, so no formula answer cached before then is read again. Kept in
 * document properties (custom functions may read them, never write them).
 */
import { documentProperties } from '../platform/properties';

export const GENERATION_KEY = 'ma.formulaGeneration';

export function formulaGeneration(): string {
  return documentProperties().getProperty(GENERATION_KEY) ?? '0';
}

/**
 * A new generation (the time in base 36: distinct per call within an execution's clock). `previous`:
 * the generation as the caller already read it (a sync run's whole read under the lock), saving a read.
 */
export function nextFormulaGeneration(previous: string = formulaGeneration()): string {
  let next = Date.now().toString(36);
  if (next === previous) next = `${next}.1`;
  documentProperties().setProperty(GENERATION_KEY, next);
  return next;
}
