/** Messages between the host (main thread) and an execution's worker. Plain data only. */
import type { MessagePort } from 'node:worker_threads';

export interface HandleDescriptor {
  id: number;
  /** Counted name prefix, e.g. "Range" or "Sheets.Spreadsheets.Values". */
  name: string;
  methods: string[];
  nested: Record<string, HandleDescriptor>;
  constants: Record<string, unknown>;
}

/** A host object travelling to the worker. */
export interface WireHandle {
  __gas: 'handle';
  handle: HandleDescriptor;
}

/** A worker proxy travelling back to the host: becomes the host object again. */
export interface WireRef {
  __gas: 'ref';
  id: number;
}

/** A worker-side Utilities.newBlob() travelling to the host (e.g. as a fetch payload). */
export interface WireBlob {
  __gas: 'blob';
  bytes: number[];
  contentType: string | null;
  name: string | null;
}

export type WireMarker = WireHandle | WireRef | WireBlob;

export function isWireMarker(value: unknown): value is WireMarker {
  return value !== null && typeof value === 'object' && typeof (value as { __gas?: unknown }).__gas === 'string';
}

export interface WireError {
  name: string;
  message: string;
}

export type WorkerToHost =
  | { type: 'call'; handle: number; method: string; args: unknown[] }
  | { type: 'log'; line: string }
  | { type: 'done'; ok: true; value: unknown; usage?: WorkerUsageReport }
  | { type: 'done'; ok: false; error: WireError; usage?: WorkerUsageReport };

/** The worker thread's own CPU time and peak heap (WorkerUsage), sent with its answer. */
export interface WorkerUsageReport {
  cpuMs: number | null;
  peakHeapBytes: number;
}

export type HostReply = { ok: true; value: unknown } | { ok: false; error: WireError };

export interface LibraryCode {
  userSymbol: string;
  source: string;
  /** Names the library's source declares at top level: its namespace (none: the one object it puts on its global object). */
  exportNames: string[];
  filename: string;
}

/** What a pooled worker thread gets once, when it starts (from the WorkerPool). */
export interface PooledWorkerData {
  /** Int32 lock the process's workers take to flip V8's process-wide --expose-gc (the heap reset, garbageCollector). */
  gcFlagLock: SharedArrayBuffer;
}

export interface WorkerStart {
  /** Int32 flag the worker waits on while the host serves a call. */
  signal: SharedArrayBuffer;
  clock: SharedArrayBuffer;
  port: MessagePort;
  roots: Record<string, HandleDescriptor>;
  libraries: LibraryCode[];
  code: string;
  codeFilename: string;
  functionName: string;
  args: unknown[];
  timeZone: string;
  echoLogs: boolean;
}
