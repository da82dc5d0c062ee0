/**
 * The execution budget: Apps Script ends an execution at 6 minutes (30 s for a custom function)
 * without running any finally block, so work is planned against a deadline with a safety margin.
 */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
export const CUSTOM_FUNCTION_LIMIT_MS = 30 * 1000;

/**
 * When this execution started: Apps Script runs the script's global code at the start of every
 * execution (and the local runtime loads the bundle into a fresh context for each), so the
 * bundle's load time is the execution's start.
 */
export const EXECUTION_STARTED_AT = Date.now();

export class ExecutionBudget {
  readonly startedAt: number;

  constructor(
    readonly limitMs: number = EXECUTION_LIMIT_MS,
    /** Time kept in reserve for the last page's write and checkpoint. */
    readonly reserveMs: number = Math.min(75_000, Math.floor(limitMs / 4)),
    private readonly now: () => number = () => Date.now(),
  ) {
    this.startedAt = this.now();
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  remainingMs(): number {
    return this.limitMs - this.elapsedMs();
  }

  /** True while there is room for one more request + write + checkpoint. */
  canStartStep(): boolean {
    return this.remainingMs() > this.reserveMs;
  }

  /** True when waiting `ms` (a Retry-After, a backoff) still leaves room to do the work after it. */
  canWait(ms: number): boolean {
    return this.remainingMs() - ms > this.reserveMs;
  }
}
