/**
 * The slice of the harness Stack and the local runtime the playground uses. Structural, so the
 * real `Stack` from dev/harness fits and tests can pass a small stand-in.
 */
export interface RunResultLike {
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string };
  timedOut: boolean;
  logs: string[];
}

export interface TriggerLike {
  uid: string;
  handlerFunction: string;
  type: string;
  everyHours?: number;
  atHour?: number;
}

export interface PlaygroundRuntime {
  run(
    functionName: string,
    args?: unknown[],
    options?: { authMode?: 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION'; spreadsheetId?: string },
  ): Promise<RunResultLike>;
  fireTrigger(triggerUid: string): Promise<RunResultLike>;
  readonly triggers: readonly TriggerLike[];
  exportJson(): { sheets: Record<string, unknown[][]> };
  /** The workbook model (dev/gas-runtime/spreadsheet Workbook) the executions read and write. */
  readonly workbook?: unknown;
  /** The runtime clock: Connected Sheets results are drawn once their modelled end has passed on it. */
  readonly clock?: { now(): number };
}

export interface PlaygroundStack {
  runtime: PlaygroundRuntime;
  apiUrl: string;
  control(path: string, body?: unknown): Promise<unknown>;
  /** Moves the runtime's and the emulator's clocks together (the harness Stack's advanceClocks). */
  advanceClocks(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** What the page receives for a google.script.run call (the shim turns it into handler calls). */
export type RunReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string } };
