/**
 * The emulator's clock: real time plus an offset that tests move forward through the control API.
 * With `followsRealTime` false it stands still between those moves, so it stays in step with a
 * runtime whose clock moves by modelled time only (the bench).
 */
export class EmulatorClock {
  private offsetMs = 0;
  private readonly frozenAt: number;

  constructor(private readonly followsRealTime = true) {
    this.frozenAt = Date.now();
  }

  private base(): number {
    return this.followsRealTime ? Date.now() : this.frozenAt;
  }

  now(): number {
    return this.base() + this.offsetMs;
  }

  nowDate(): Date {
    return new Date(this.now());
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advance_seconds must be a non-negative number');
    this.offsetMs += seconds * 1000;
  }

  /** Pins the clock to an absolute instant (used by state reset with a fixed start). */
  setNow(ms: number): void {
    this.offsetMs = ms - this.base();
  }
}
