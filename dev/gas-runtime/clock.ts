/**
 * The runtime clock: real time plus an offset. The offset lives in a SharedArrayBuffer so the
 * workers' Date and Date.now read it without an RPC while the host moves it (Utilities.sleep,
 * modelled service costs, tests calling clock.advance).
 */
export class RuntimeClock {
  /** One BigInt64 slot: the offset in ms added to the real clock. */
  readonly buffer = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  private readonly offset = new BigInt64Array(this.buffer);

  constructor(startTime?: number) {
    if (startTime !== undefined) this.setNow(startTime);
  }

  now(): number {
    return Date.now() + Number(Atomics.load(this.offset, 0));
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance needs a non-negative number of ms, got ${ms}`);
    Atomics.add(this.offset, 0, BigInt(Math.round(ms)));
  }

  /** Pins the clock to an absolute instant; it keeps running in real time from there. */
  setNow(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`clock.setNow needs a finite epoch ms, got ${ms}`);
    Atomics.store(this.offset, 0, BigInt(Math.round(ms - Date.now())));
  }
}
