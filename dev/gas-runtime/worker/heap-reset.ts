import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Collects what a finished execution left on a pooled worker's heap, so the next execution's peak
 * heap (usage.ts) is its own, as it was on a worker of its own. The runtime's accounting, not a
 * Google behaviour. `gc` is exposed for the one context made here only; GAS contexts delete it
 * (context.ts) in case another thread makes one meanwhile.
 */
let collect: (() => void) | undefined;

export function collectGarbage(): void {
  collect ??= exposedGc();
  collect();
}

function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
