import { MessageChannel } from 'node:worker_threads';
import type { RuntimeClock } from '../clock.js';
import { costOf } from '../cost-model.js';
import type { LockManager } from '../services/lock.js';
import type { CallInterceptor, ExecutionCounts, ExecutionServiceContext } from '../types.js';
import { HandleTable, type BlobReviver } from './host-values.js';
import type { HostReply, LibraryCode, WireError, WorkerStart, WorkerToHost } from './protocol.js';
import type { PooledWorker, WorkerPool } from './worker-pool.js';

export const TIME_LIMIT_MESSAGE = 'Exceeded maximum execution time';
const WATCHDOG_INTERVAL_MS = 20;
const SHEETS_FAMILIES = new Set(['SpreadsheetApp', 'Sheets']);
const UI_CLASSES = new Set(['Ui', 'Menu']);

export interface ExecutionResult {
  ok: boolean;
  value?: unknown;
  error?: WireError;
  /** Ended by the time limit or a kill point: "Exceeded maximum execution time". */
  timedOut: boolean;
  startedAt: number;
  endedAt: number;
  elapsedMs: number;
  counts: ExecutionCounts;
  logs: string[];
}

/** The nth call (1-based) of a qualified method, as counts.byMethod names it. */
export interface MethodCall {
  method: string;
  nth: number;
}

export interface ExecutionPlan {
  ctx: ExecutionServiceContext;
  functionName: string;
  args: unknown[];
  timeLimitMs: number;
  killAtServiceCall?: number;
  killAtMethodCall?: MethodCall;
  /** RunOptions.killAfterFetchTo: the URL prefix whose fetch answer arrives after the time limit. */
  killAfterFetchTo?: string;
  /** Global name → host service object. */
  roots: Record<string, object>;
  libraries: LibraryCode[];
  code: string;
  codeFilename: string;
  /** Hooks around every service call, outermost first (quotas, the SpreadsheetApp write buffer). */
  interceptors?: CallInterceptor[];
  /** The message of an execution ended by its time limit (a trigger past the daily allowance has Google's own). */
  timeLimitMessage?: string;
}

export interface ExecutionEnvironment {
  clock: RuntimeClock;
  locks: LockManager;
  costModel: boolean;
  onSleep?: (ms: number) => Promise<void>;
  reviveBlob: BlobReviver;
  echoLogs: boolean;
  /** The runtime's worker threads (the WorkerPool). */
  workers: WorkerPool;
}

/** One execution: fresh vm contexts on a pooled worker thread, served synchronously by the host. */
export class Execution {
  private readonly table: HandleTable;
  private readonly signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private readonly channel = new MessageChannel();
  private readonly logs: string[] = [];
  private readonly startedAt: number;
  /** This execution's own timeline: real time since it started plus the time it spent (modelled costs, sleeps, lock waits). */
  private readonly realStart: number;
  /** clock.advanced() at the start: time the world moved on since is this execution's time too. */
  private readonly advancedAtStart: number;
  private spentMs = 0;
  private worker: PooledWorker | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private finished = false;
  private result: ExecutionResult | undefined;
  private settle: (result: ExecutionResult) => void = () => undefined;

  constructor(
    private readonly env: ExecutionEnvironment,
    private readonly plan: ExecutionPlan,
  ) {
    this.table = new HandleTable(env.reviveBlob);
    // One reading of real time for both: two reads a millisecond apart made the execution's own
    // timeline 1 ms short (a 120 s sleep measured 119,999 ms).
    this.realStart = env.clock.real();
    this.startedAt = env.clock.nowAt(this.realStart);
    this.advancedAtStart = env.clock.advanced();
    plan.ctx.syncClock = () => this.syncToClock();
  }

  /** Where this execution's own time is. Never ahead of the shared clock, which is the furthest execution. */
  private ownNow(real: number = this.env.clock.real()): number {
    return this.startedAt + this.passedMs(real) + this.spentMs;
  }

  /** Time that passed for everyone since this execution started: real time, and clock.advance(). */
  private passedMs(real: number = this.env.clock.real()): number {
    return real - this.realStart + (this.env.clock.advanced() - this.advancedAtStart);
  }

  /**
   * Time this execution spends (a modelled service cost, Utilities.sleep). Executions running at
   * the same time spend theirs in parallel, as in Apps Script where each is its own process: the
   * shared clock moves only when this execution gets ahead of it, never by the sum of them all.
   */
  async spend(ms: number): Promise<void> {
    this.spentMs += ms;
    const real = this.env.clock.real();
    const moved = this.env.clock.advanceTo(this.ownNow(real), real);
    if (moved > 0 && this.env.onSleep && !this.finished) await this.env.onSleep(moved);
  }

  /** After waiting on a lock: the holder's time has passed, so this execution is at least at the shared clock. */
  private syncToClock(): void {
    this.spentMs = Math.max(this.spentMs, this.env.clock.now() - this.startedAt - this.passedMs());
  }

  async run(): Promise<ExecutionResult> {
    const worker = await this.env.workers.acquire();
    // Aborted while waiting for the worker (the runtime is closing): it never ran.
    if (this.result) {
      worker.release(true);
      return this.result;
    }
    const roots = Object.fromEntries(
      Object.entries(this.plan.roots).map(([name, obj]) => [name, this.table.describe(obj, name, name)]),
    );
    const start: WorkerStart = {
      signal: this.signal.buffer as SharedArrayBuffer,
      clock: this.env.clock.buffer,
      port: this.channel.port2,
      roots,
      libraries: this.plan.libraries,
      code: this.plan.code,
      codeFilename: this.plan.codeFilename,
      functionName: this.plan.functionName,
      args: this.table.encode(this.plan.args, 'args') as unknown[],
      timeZone: this.plan.ctx.timeZone,
      echoLogs: this.env.echoLogs,
    };
    return new Promise<ExecutionResult>((resolve) => {
      this.settle = resolve;
      // A host failure while serving (onSleep cannot reach the emulator any more) ends this execution
      // with its message; left to itself it was an unhandled rejection that took the process down.
      this.channel.port1.on(
        'message',
        (message: WorkerToHost) =>
          void this.onMessage(message).catch((error: unknown) =>
            this.finish({
              ok: false,
              error: { name: 'Exception', message: error instanceof Error ? error.message : String(error) },
            }),
          ),
      );
      this.worker = worker;
      worker.start(start, {
        onError: (error) => this.finish({ ok: false, error: { name: error.name, message: error.message } }),
        // A worker that died on its own may still have its last message in flight: read it first.
        onExit: () =>
          setTimeout(
            () => this.finish({ ok: false, error: { name: 'Error', message: 'The execution ended unexpectedly' } }),
            50,
          ),
      });
      this.watchdog = setInterval(() => this.checkTimeLimit(), WATCHDOG_INTERVAL_MS);
    });
  }

  /** Ends the execution from outside (the runtime is closing). */
  abort(reason: string): void {
    this.finish({ ok: false, error: { name: 'Exception', message: reason } });
  }

  private overTime(): boolean {
    return this.ownNow() - this.startedAt > this.plan.timeLimitMs;
  }

  private checkTimeLimit(): boolean {
    if (!this.finished && this.overTime()) this.kill();
    return this.finished;
  }

  /** As Apps Script: the execution stops where it is, no finally block runs. */
  private kill(): void {
    this.finish({
      ok: false,
      timedOut: true,
      error: { name: 'Exception', message: this.plan.timeLimitMessage ?? TIME_LIMIT_MESSAGE },
    });
  }

  private reply(reply: HostReply): void {
    if (this.finished) return;
    try {
      this.channel.port1.postMessage(reply);
    } catch (error) {
      this.channel.port1.postMessage({
        ok: false,
        error: { name: 'Exception', message: `Unsupported value: ${(error as Error).message}` },
      });
    }
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  private async onMessage(message: WorkerToHost): Promise<void> {
    if (this.finished) return;
    if (message.type === 'done') {
      if (message.usage) {
        this.plan.ctx.counts.workerCpuMs = message.usage.cpuMs;
        this.plan.ctx.counts.peakHeapBytes = message.usage.peakHeapBytes;
      }
      // The worker answered on its own: it may serve another execution.
      if (message.ok) this.finish({ ok: true, value: this.table.decode(message.value), reusable: true });
      else this.finish({ ok: false, error: message.error, reusable: true });
      return;
    }
    if (message.type === 'log') {
      this.logs.push(message.line);
      if (this.env.echoLogs) process.stderr.write(`[gas ${this.plan.ctx.executionId}] ${message.line}\n`);
      this.reply({ ok: true, value: undefined });
      return;
    }
    const reply = await this.serve(message.handle, message.method, message.args);
    if (this.checkTimeLimit()) return;
    this.reply(reply);
  }

  private async serve(handleId: number, method: string, wireArgs: unknown[]): Promise<HostReply> {
    const entry = this.table.entry(handleId);
    if (!entry) return { ok: false, error: { name: 'Exception', message: 'Unknown service object' } };
    const counts = this.plan.ctx.counts;
    const qualified = `${entry.name}.${method}`;
    const killAt = this.plan.killAtMethodCall;
    if (
      (this.plan.killAtServiceCall !== undefined && counts.serviceCalls + 1 >= this.plan.killAtServiceCall) ||
      (killAt !== undefined && qualified === killAt.method && (counts.byMethod[qualified] ?? 0) + 1 >= killAt.nth)
    ) {
      this.kill();
      return { ok: false, error: { name: 'Exception', message: TIME_LIMIT_MESSAGE } };
    }
    counts.serviceCalls += 1;
    counts.byMethod[qualified] = (counts.byMethod[qualified] ?? 0) + 1;
    // The UI (menus, dialogs, getUi itself) is not the spreadsheet's data: not a Sheets call.
    if (SHEETS_FAMILIES.has(entry.family) && !UI_CLASSES.has(entry.name) && qualified !== 'SpreadsheetApp.getUi') {
      counts.sheetsCalls += 1;
      counts.sheetsByMethod[qualified] = (counts.sheetsByMethod[qualified] ?? 0) + 1;
    }
    const target = (entry.object as Record<string, unknown>)[method];
    if (typeof target !== 'function' || method.startsWith('_')) {
      return { ok: false, error: { name: 'TypeError', message: `${method} is not a function` } };
    }
    try {
      const args = this.table.decode(wireArgs) as unknown[];
      const call = { family: entry.family, className: entry.name, method, target: entry.object, args };
      let proceed = (): unknown => (target as (...a: unknown[]) => unknown).apply(entry.object, args);
      for (const interceptor of [...(this.plan.interceptors ?? [])].reverse()) {
        const inner = proceed;
        proceed = () => interceptor.around(call, inner);
      }
      const result: unknown = await proceed();
      await this.charge(entry.family, qualified, args, result, entry.object);
      if (this.answerArrivesTooLate(qualified, args)) {
        this.kill();
        return { ok: false, error: { name: 'Exception', message: TIME_LIMIT_MESSAGE } };
      }
      return { ok: true, value: this.table.encode(result, entry.family) };
    } catch (error) {
      // The called object goes too: a call that waited before failing (waitForCompletion) is charged its wait.
      await this.charge(entry.family, qualified, [], undefined, entry.object);
      return {
        ok: false,
        error: { name: 'Exception', message: error instanceof Error ? error.message : String(error) },
      };
    }
  }

  /**
   * The time limit passed while the answer of this fetch was on its way: the server has acted on
   * the request, the script never sees the answer (guides/services/quotas, "Script runtime":
   * Google ends the execution at its limit, wherever it is, with "Exceeded maximum execution time").
   */
  private answerArrivesTooLate(qualified: string, args: unknown[]): boolean {
    const prefix = this.plan.killAfterFetchTo;
    return prefix !== undefined && qualified === 'UrlFetchApp.fetch' && String(args[0]).startsWith(prefix);
  }

  private async charge(
    family: string,
    qualified: string,
    args: unknown[],
    result: unknown,
    target?: object,
  ): Promise<void> {
    const cost = costOf(family, qualified, args, result, target);
    const counts = this.plan.ctx.counts;
    counts.cellsRead += cost.cellsRead;
    counts.cellsWritten += cost.cellsWritten;
    if (!this.env.costModel || cost.ms <= 0) return;
    counts.modelledMs += cost.ms;
    counts.modelledMsByService[family] = (counts.modelledMsByService[family] ?? 0) + cost.ms;
    await this.spend(cost.ms);
  }

  private finish(outcome: {
    ok: boolean;
    value?: unknown;
    error?: WireError;
    timedOut?: boolean;
    reusable?: boolean;
  }): void {
    if (this.finished) return;
    this.finished = true;
    if (this.watchdog) clearInterval(this.watchdog);
    for (const interceptor of this.plan.interceptors ?? []) interceptor.end?.(!outcome.timedOut);
    this.env.locks.releaseAll(this.plan.ctx.executionId);
    this.channel.port1.close();
    this.worker?.release(outcome.reusable === true);
    const endedAt = this.ownNow();
    const result: ExecutionResult = {
      ok: outcome.ok,
      timedOut: outcome.timedOut ?? false,
      startedAt: this.startedAt,
      endedAt,
      elapsedMs: endedAt - this.startedAt,
      counts: this.plan.ctx.counts,
      logs: this.logs,
    };
    if (outcome.ok) result.value = outcome.value;
    else result.error = outcome.error;
    this.result = result;
    this.settle(result);
  }
}
