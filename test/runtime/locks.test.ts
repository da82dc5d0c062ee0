import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GasRuntime } from '../../dev/gas-runtime/index.js';
import { basicRuntime } from './fixture-runtime.js';

let runtime: GasRuntime;

beforeEach(async () => {
  runtime = await basicRuntime({ costModel: false });
});
afterEach(async () => {
  await runtime.close();
});

/** Waits (real time, bounded) until the first execution has entered its locked section. */
async function untilLogged(label: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((runtime.properties.script.get('log') ?? '').includes(label)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${label} never appeared`);
}

describe('LockService excludes an execution running at the same time', () => {
  it('makes the second waitLock wait until the first releases', async () => {
    const first = runtime.run('holdScriptLockUntilReleased', ['A']);
    await untilLogged('A-start');
    const second = runtime.run('lockedSection', ['B', 0, 60_000]);
    // B is parked on the lock: whatever the machine's load, it cannot start while A holds it.
    await new Promise((r) => setTimeout(r, 300));
    expect(runtime.properties.script.get('log')).toBe('A-start,');
    runtime.properties.script.set('release', 'yes');
    const [a, b] = await Promise.all([first, second]);
    expect(a.ok && b.ok).toBe(true);
    expect(a.value).toBe(false); // hasLock() after releaseLock()
    expect(runtime.properties.script.get('log')).toBe('A-start,A-end,B-start,B-end,');
  });

  it('tryLock fails while another execution holds the lock', async () => {
    const first = runtime.run('holdScriptLockUntilReleased', ['A']);
    await untilLogged('A-start');
    const attempt = await runtime.run('tryScriptLock', [50]);
    expect(attempt.value).toEqual({ got: false, has: false });
    runtime.properties.script.set('release', 'yes');
    await first;
    expect((await runtime.run('tryScriptLock', [0])).value).toEqual({ got: true, has: true });
  });

  it("waitLock throws Google's message when the wait times out", async () => {
    const first = runtime.run('holdScriptLockUntilReleased', ['A']);
    await untilLogged('A-start');
    const second = await runtime.run('lockedSection', ['B', 0, 50]);
    expect(second.ok).toBe(false);
    expect(second.error?.message).toBe('Lock timeout: another process was holding the lock for too long.');
    runtime.properties.script.set('release', 'yes');
    await first;
  });

  it('releases the lock of an execution that ends without releasing it (even when killed)', async () => {
    // The limit is passed by moving the clock once the spinner holds the lock, not by real time:
    // a 300 ms limit ended the execution before it took the lock on a loaded machine.
    const running = runtime.run('takeLockAndSpin', [], { timeLimitMs: 60_000 });
    for (let i = 0; i < 3_000 && runtime.properties.script.get('spinner') !== 'locked'; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(runtime.properties.script.get('spinner')).toBe('locked');
    runtime.clock.advance(61_000);
    const spinner = await running;
    expect(spinner.timedOut).toBe(true);
    expect((await runtime.run('tryScriptLock', [0])).value).toEqual({ got: true, has: true });
    // tryScriptLock never released: the runtime released it when that execution ended.
    expect((await runtime.run('tryScriptLock', [0])).value).toEqual({ got: true, has: true });
  });
});
