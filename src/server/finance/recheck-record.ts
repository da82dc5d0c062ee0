/**
 * The last figure re-check (the reconciliation pass that compared every order's figures): when it
 * completed, from which placement day it saw orders and how many it rewrote. One document property,
 * read by the tie-out for the Checks sheet's scope line (from the run's one whole read of the
 * properties) and written once per execution of the pass.
 */
import { documentProperties } from '../platform/properties';

const KEY = 'ma.recheck';

export interface RecheckRecord {
  /** Epoch ms the last pass that re-checked every order completed; null before one did. */
  completedAt: number | null;
  /** The first placement day that pass saw (the plan window or the orders window); null: all of history. */
  from: string | null;
  /** Orders that pass rewrote because their figures differed. */
  repaired: number;
  /** Orders the pass in progress rewrote in its earlier executions. */
  repairing: number;
}

const NONE: RecheckRecord = { completedAt: null, from: null, repaired: 0, repairing: 0 };

/** The record this execution saved: the state's read at the start of the run does not hold it. */
let savedNow: RecheckRecord | null = null;

/**
 * The record from the document properties as the run's one whole read found them (no call of its
 * own), or as this execution saved it since.
 */
export function readRecheck(readAtStart: Readonly<Record<string, string>>): RecheckRecord {
  if (savedNow) return { ...savedNow };
  try {
    const saved = JSON.parse(readAtStart[KEY] ?? 'null') as Partial<RecheckRecord> | null;
    if (!saved || typeof saved !== 'object') return { ...NONE };
    return {
      completedAt: typeof saved.completedAt === 'number' ? saved.completedAt : null,
      from: typeof saved.from === 'string' ? saved.from : null,
      repaired: typeof saved.repaired === 'number' ? saved.repaired : 0,
      repairing: typeof saved.repairing === 'number' ? saved.repairing : 0,
    };
  } catch {
    return { ...NONE };
  }
}

export function saveRecheck(record: RecheckRecord): void {
  documentProperties().setProperty(KEY, JSON.stringify(record));
  savedNow = { ...record };
}
