/** The emulator's clock: real time plus an offset that tests move forward through the control API. */
export class EmulatorClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
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
    this.offsetMs = ms - Date.now();
  }
}
