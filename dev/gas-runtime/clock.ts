/**
 * The runtime clock: real time plus an offset. The offset lives in a SharedArrayBuffer so the
 * workers' Date and Date.now read it without an RPC while the host moves it (Utilities.sleep,
 * modelled service costs, tests calling clock.advance).
 */
export class RuntimeClock {
  /**
   * Three BigInt64 slots: the offset in ms added to the real clock; 1 while real time flows (0:
   * modelled time only); the ms moved by advance() — time that passed for every execution alike.
   */
  readonly buffer = new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT);
  private readonly offset = new BigInt64Array(this.buffer);

  /**
   * `realTime: false` (option `modelledTimeOnly` of the runtime): the clock moves only by modelled
   * costs, sleeps and advance(), so a test's time limits do not depend on how loaded the host is.
   */
  constructor(startTime?: number, realTime = true) {
    Atomics.store(this.offset, 1, realTime ? 1n : 0n);
    if (startTime !== undefined) this.setNow(startTime);
  }

  /** Real ms now, or 0 when only modelled time counts. */
  real(): number {
    return Atomics.load(this.offset, 1) === 1n ? Date.now() : 0;
  }

  now(): number {
    return this.nowAt(this.real());
  }

  /** The clock at a real-time reading taken with real(). */
  nowAt(real: number): number {
    return real + Number(Atomics.load(this.offset, 0));
  }

  /** Time passes for everyone (a test or tool moving the clock): executions running now age by it too. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`clock.advance needs a non-negative number of ms, got ${ms}`);
    Atomics.add(this.offset, 0, BigInt(Math.round(ms)));
    Atomics.add(this.offset, 2, BigInt(Math.round(ms)));
  }

  /** Total ms moved by advance() so far. */
  advanced(): number {
    return Number(Atomics.load(this.offset, 2));
  }

  /**
   * Moves the clock on to `target` if it is behind it; returns the ms it moved. Concurrent
   * executions each spend time on their own timeline: the shared clock is the furthest of them.
   * `real`: the real-time reading `target` was computed from (a second reading a millisecond
   * later would make the move 1 ms short).
   */
  advanceTo(target: number, real: number = this.real()): number {
    for (;;) {
      const offset = Atomics.load(this.offset, 0);
      const behind = Math.round(target - (real + Number(offset)));
      if (behind <= 0) return 0;
      if (Atomics.compareExchange(this.offset, 0, offset, offset + BigInt(behind)) === offset) return behind;
    }
  }

  /** Pins the clock to an absolute instant; it keeps running in real time from there. */
  setNow(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`clock.setNow needs a finite epoch ms, got ${ms}`);
    Atomics.store(this.offset, 0, BigInt(Math.round(ms - this.real())));
  }
}
