import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Collects what a finished execution left on a pooled worker's heap, so the next execution's peak
 * heap (WorkerUsage) is its own, as it was on a worker of its own. The runtime's accounting, not a
 * Google behaviour. V8 flags are process-wide: `gc` is exposed while this worker makes one context,
 * under a lock all the process's workers share (`flagLock`), else one worker's "--no-expose-gc"
 * lands between another's flag and its context. GAS contexts made meanwhile delete it (createGasContext).
 */
export function garbageCollector(flagLock: SharedArrayBuffer): () => void {
  const lock = new Int32Array(flagLock);
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1);
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    // Only the accounting is lost without it: never the execution.
    return typeof gc === 'function' ? (gc as () => void) : () => undefined;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0, 1);
  }
}
