import type { RuntimeClock } from '../clock.js';
import { hasDocument, type ExecutionServiceContext } from '../types.js';

const POLL_MS = 10;

interface Waiter {
  scope: string;
  executionId: string;
  grant: (acquired: boolean) => void;
}

/**
 * The locks every execution shares. A waiting tryLock/waitLock parks its RPC (the worker stays
 * blocked) until the holder releases, the holder's execution ends, or the wait times out on the
 * runtime clock.
 */
export class LockManager {
  private readonly holders = new Map<string, string>();
  private readonly waiters: Waiter[] = [];

  constructor(private readonly clock: RuntimeClock) {}

  holds(scope: string, executionId: string): boolean {
    return this.holders.get(scope) === executionId;
  }

  holder(scope: string): string | undefined {
    return this.holders.get(scope);
  }

  acquire(scope: string, executionId: string, timeoutMs: number): Promise<boolean> {
    const holder = this.holders.get(scope);
    if (holder === undefined || holder === executionId) {
      this.holders.set(scope, executionId);
      return Promise.resolve(true);
    }
    if (timeoutMs <= 0) return Promise.resolve(false);
    const deadline = this.clock.now() + timeoutMs;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        scope,
        executionId,
        grant: (acquired) => {
          clearInterval(timer);
          resolve(acquired);
        },
      };
      const timer = setInterval(() => {
        if (this.clock.now() < deadline) return;
        this.dropWaiter(waiter);
        waiter.grant(false);
      }, POLL_MS);
      this.waiters.push(waiter);
    });
  }

  release(scope: string, executionId: string): void {
    if (this.holders.get(scope) !== executionId) return;
    this.holders.delete(scope);
    const next = this.waiters.find((w) => w.scope === scope);
    if (!next) return;
    this.dropWaiter(next);
    this.holders.set(scope, next.executionId);
    next.grant(true);
  }

  /** An execution ended (normally or killed): free its locks and forget its waits. */
  releaseAll(executionId: string): void {
    for (const waiter of this.waiters.filter((w) => w.executionId === executionId)) {
      this.dropWaiter(waiter);
      waiter.grant(false);
    }
    for (const [scope, holder] of [...this.holders]) if (holder === executionId) this.release(scope, executionId);
  }

  private dropWaiter(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
  }
}

function timeoutOf(value: unknown): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) throw new Error('Invalid argument: timeoutInMillis');
  return ms;
}

/** Google's `Lock` class. */
export class Lock {
  constructor(
    private readonly locks: LockManager,
    private readonly scope: string,
    private readonly ctx: ExecutionServiceContext,
  ) {}

  tryLock(timeoutInMillis: unknown): Promise<boolean> {
    return this.acquire(timeoutInMillis);
  }

  async waitLock(timeoutInMillis: unknown): Promise<void> {
    if (!(await this.acquire(timeoutInMillis)))
      throw new Error('Lock timeout: another process was holding the lock for too long.');
  }

  /** A wait behind another holder brings this execution up to the shared clock (the holder's time passed for it too). */
  private async acquire(timeoutInMillis: unknown): Promise<boolean> {
    const holder = this.locks.holder(this.scope);
    const acquired = await this.locks.acquire(this.scope, this.ctx.executionId, timeoutOf(timeoutInMillis));
    if (holder !== undefined && holder !== this.ctx.executionId) this.ctx.syncClock?.();
    return acquired;
  }

  releaseLock(): void {
    this.locks.release(this.scope, this.ctx.executionId);
  }

  hasLock(): boolean {
    return this.locks.holds(this.scope, this.ctx.executionId);
  }
}

export class LockService {
  constructor(
    private readonly locks: LockManager,
    private readonly ctx: ExecutionServiceContext,
    private readonly documentId: string,
    private readonly userEmail: string,
  ) {}

  /** "Returns null if called outside the context of a containing document". */
  getDocumentLock(): Lock | null {
    if (!hasDocument(this.ctx)) return null;
    return new Lock(this.locks, `document:${this.documentId}`, this.ctx);
  }

  getScriptLock(): Lock {
    return new Lock(this.locks, 'script', this.ctx);
  }

  getUserLock(): Lock {
    return new Lock(this.locks, `user:${this.userEmail}`, this.ctx);
  }
}
