/**
 * The bench's stack: an emulator whose clock moves only with the runtime's (the runtime counts
 * modelled time only), the runtime on the bench bundle (dist/ + bench/alternatives), connected
 * through the real consent flow over HTTP.
 */
import { startEmulator } from '../dev/emulator/index';
import { startStack, type Stack } from '../dev/harness/index';
import { writeBenchBundle } from './bundle';

/** A fixed instant: the same seed then gives the same data on every run. */
export const BENCH_NOW = Date.parse('2026-11-16T09:00:00Z');

export interface BenchStack {
  stack: Stack;
  close(): Promise<void>;
}

export async function startBenchStack(orders: number, bundleDir: string = writeBenchBundle()): Promise<BenchStack> {
  const emulator = await startEmulator({ orders, seed: 1, now: BENCH_NOW, clockFollowsRealTime: false });
  try {
    const stack = await startStack({ apiUrl: emulator.url, distDir: bundleDir, modelledTimeOnly: true });
    const close = async (): Promise<void> => {
      await stack.close();
      await emulator.close();
    };
    try {
      await stack.connect();
    } catch (error) {
      await close();
      throw error;
    }
    return { stack, close };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}
