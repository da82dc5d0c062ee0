/** What the Sync log keeps of each run and the records a sync could not write, in the sync state. */
import type { PauseCause } from '../../contract/pause-text';

export interface RunRecord {
  job: string;
  startedAt: number;
  endedAt: number | null;
  outcome: 'running' | 'ok' | 'partial' | 'error' | 'busy' | 'interrupted';
  rows: number;
  message: string;
  /** Why an 'error' run stopped (a failure code); absent in records saved by older versions. */
  failureCode?: string | null;
  /** The run stopped because the connection was lost (a reconnect makes it history). */
  connectionLost?: boolean;
  /** A partial run paused for a request limit (`pauseFor`) continues after this (epoch ms). */
  pausedUntil?: number | null;
  /** What the paused run waits for; absent when it did not pause and in records saved by older versions. */
  pauseFor?: PauseCause;
  /** The run's Sync log counts, compact (packCounts); absent in records saved by older versions. */
  written?: number[];
}

/** Records the sync could not write, oldest first (the skipped records); absent in state of older versions. */
export interface SkippedState {
  orders: Array<{ id: string; day: string | null; reason: string }>;
  products: Array<{ id: string; day: string | null; reason: string }>;
  /** Daily P&L rows, by date (id = day); absent in state written before days were isolated. */
  days: Array<{ id: string; day: string | null; reason: string }>;
}
