/**
 * Without --api the demo starts a fresh emulator on every invocation. With --state DIR the next
 * invocation must see the same store and the same orders, so the emulator's data is pinned to the
 * generation instant of the first run (saved in DIR); its clock then reads the real time again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator/index';

const FILE = 'demo-emulator.json';
const HOUR_MS = 3_600_000;

export interface EmulatorAnchor {
  seed: number;
  orders: number;
  /** The data's generation instant (ISO). */
  generatedAt: string;
}

/** The anchor saved in DIR by an earlier run, or null; a damaged file is an error, not a silent new data set. */
export function readAnchor(stateDir: string): EmulatorAnchor | null {
  const file = path.join(stateDir, FILE);
  if (!fs.existsSync(file)) return null;
  let value: Partial<EmulatorAnchor>;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<EmulatorAnchor>;
  } catch (e) {
    throw new Error(
      `${file} is not readable JSON (${(e as Error).message}); remove it to start a new demo spreadsheet`,
    );
  }
  if (
    !Number.isInteger(value.seed) ||
    !Number.isInteger(value.orders) ||
    typeof value.generatedAt !== 'string' ||
    Number.isNaN(Date.parse(value.generatedAt))
  ) {
    throw new Error(`${file} does not hold seed, orders and generatedAt; remove it to start a new demo spreadsheet`);
  }
  return { seed: value.seed as number, orders: value.orders as number, generatedAt: value.generatedAt };
}

/** Saves the anchor in DIR so the next invocation regenerates the same data. */
export function writeAnchor(stateDir: string, anchor: EmulatorAnchor): void {
  fs.mkdirSync(stateDir, { recursive: true });
  fs.writeFileSync(path.join(stateDir, FILE), `${JSON.stringify(anchor, null, 1)}\n`);
}

/** A new anchor at the start of the current hour (as the emulator would pick itself). */
export function freshAnchor(seed: number, orders: number, now = Date.now()): EmulatorAnchor {
  return { seed, orders, generatedAt: new Date(Math.floor(now / HOUR_MS) * HOUR_MS).toISOString() };
}

/** Starts the emulator on the anchor's data, its clock moved on to the real time. */
export async function startAnchoredEmulator(anchor: EmulatorAnchor): Promise<RunningEmulator> {
  const generatedAt = Date.parse(anchor.generatedAt);
  const emulator = await startEmulator({ seed: anchor.seed, orders: anchor.orders, now: generatedAt });
  const elapsedSeconds = Math.floor((Date.now() - generatedAt) / 1000);
  if (elapsedSeconds > 0) emulator.clock.advance(elapsedSeconds);
  return emulator;
}
