import { Worker } from 'node:worker_threads';
import type { PooledWorkerData, WorkerStart } from './protocol.js';
import { workerBundle } from './worker-bundle.js';

/** How many finished workers a runtime keeps for the next executions; more start on demand. */
const KEEP_IDLE = 2;
/** A worker still running a script's leftover promise jobs this long after its answer is ended. */
const DRAIN_LIMIT_MS = 1_000;

/** One for the process: V8 flags are process-wide, whichever runtime's pool started the worker. */
const workerData: PooledWorkerData = { gcFlagLock: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };

/** What the execution holding a worker hears of it. */
export interface WorkerListener {
  onError(error: Error): void;
  onExit(): void;
}

/**
 * One worker thread, reused by executions one at a time. Starting a thread costs far more CPU than
 * an execution (the runtime's cost, not Apps Script's); what Apps Script keeps apart (each
 * execution starts from a fresh global scope) is kept apart by the worker's entry, which makes new
 * contexts for every execution.
 */
export class PooledWorker {
  private listener: WorkerListener | undefined;
  private dead = false;
  /** Settles true once the worker says it has nothing left to run ("idle", from the worker's entry), false if it ends first. */
  private drained: Promise<boolean> = Promise.resolve(true);
  private onDrained: (fit: boolean) => void = () => undefined;

  constructor(
    private readonly pool: WorkerPool,
    private readonly worker: Worker,
  ) {
    worker.on('message', (message: unknown) => {
      if (message === 'idle') this.onDrained(true);
    });
    worker.on('error', (error) => {
      this.listener?.onError(error);
      void this.terminate();
    });
    worker.on('exit', () => {
      this.listener?.onExit();
      void this.terminate();
    });
  }

  /** Hands the worker one execution's start; its MessagePort travels with it. */
  start(start: WorkerStart, listener: WorkerListener): void {
    this.listener = listener;
    this.drained = new Promise((resolve) => (this.onDrained = resolve));
    this.worker.ref();
    this.worker.postMessage(start, [start.port]);
  }

  /**
   * The execution is over. `reusable`: it ended with the worker's own answer. A worker killed mid-run
   * (time limit, kill point), crashed, or whose host side failed is ended, never reused.
   */
  release(reusable: boolean): void {
    this.listener = undefined;
    if (!reusable || this.dead) {
      void this.terminate();
      return;
    }
    const limit = setTimeout(() => void this.terminate(), DRAIN_LIMIT_MS);
    limit.unref();
    this.pool.draining(this);
    void this.drained.then((fit) => {
      clearTimeout(limit);
      // An idle worker must not keep the process alive (a runtime nobody closed).
      if (fit) this.worker.unref();
    });
  }

  /** True once the worker is fit for another execution; false if it ended instead. */
  whenDrained(): Promise<boolean> {
    return this.drained;
  }

  terminate(): Promise<number> {
    this.dead = true;
    this.onDrained(false);
    this.pool.forget(this);
    return this.worker.terminate();
  }
}

/** A runtime's worker threads: an execution takes an idle one or a new one, and gives it back. */
export class WorkerPool {
  private readonly idle: PooledWorker[] = [];
  /** Released by their execution, not yet idle: the next execution waits for one rather than start a thread. */
  private readonly unclaimed = new Set<PooledWorker>();
  private readonly all = new Set<PooledWorker>();
  private closed = false;
  /** Worker threads started so far (executions beyond this number reused one). */
  started = 0;

  async acquire(): Promise<PooledWorker> {
    const idle = this.idle.pop();
    if (idle) return idle;
    const [draining] = this.unclaimed;
    if (draining) {
      this.unclaimed.delete(draining);
      if (await draining.whenDrained()) return draining;
    }
    const code = await workerBundle();
    const worker = new PooledWorker(this, new Worker(code, { eval: true, workerData }));
    this.started += 1;
    this.all.add(worker);
    return worker;
  }

  draining(worker: PooledWorker): void {
    this.unclaimed.add(worker);
    void worker.whenDrained().then((fit) => {
      // Claimed meanwhile by acquire(): that execution has it.
      if (!fit || !this.unclaimed.delete(worker)) return;
      if (this.closed || this.idle.length >= KEEP_IDLE) void worker.terminate();
      else this.idle.push(worker);
    });
  }

  forget(worker: PooledWorker): void {
    this.all.delete(worker);
    this.unclaimed.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
  }

  /** Ends every worker, idle or not; an execution started later runs on a worker ended after it. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }
}
