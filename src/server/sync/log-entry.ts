/** One run's row of the Sync log, as the run hands it over: the sync log writes it, a busy run leaves it as a note. */
import type { RunRecord } from '../state/run-records';
import type { SyncCounts } from '../../contract/sidebar';
import type { PauseCause } from '../../contract/pause-text';

export interface LogEntry {
  startedAt: number;
  endedAt: number | null;
  job: string;
  pages: number;
  /** What the run wrote, per sheet: the same figures the sidebar shows for it. */
  counts: SyncCounts;
  requests: number;
  rateLimitWaits: number;
  outcome: RunRecord['outcome'];
  message: string;
  /** Why an 'error' run stopped (a failure code), kept with the run for the sidebar. */
  failureCode?: string | null;
  /** The run stopped because the connection was lost (a reconnect makes it history). */
  connectionLost?: boolean;
  /** A partial run paused for a request limit (`pauseFor`) continues after this (epoch ms). */
  pausedUntil?: number | null;
  /** What the paused run waits for (the limit a 429 named, or the add-on's hourly reserve). */
  pauseFor?: PauseCause;
}
