/**
 * The formula generation: part of every cached formula answer's key. A sync that changed data and
 * "Refresh formulas" move it on, so no formula answer cached before then is read again. Kept in
 * document properties (custom functions may read them, never write them).
 */
import { documentProperties } from '../platform/properties';

const GENERATION_KEY = 'ma.formulaGeneration';

export function formulaGeneration(): string {
  return documentProperties().getProperty(GENERATION_KEY) ?? '0';
}

/** A new generation (the time in base 36: distinct per call within an execution's clock). */
export function nextFormulaGeneration(): string {
  const previous = formulaGeneration();
  let next = Date.now().toString(36);
  if (next === previous) next = `${next}.1`;
  documentProperties().setProperty(GENERATION_KEY, next);
  return next;
}
