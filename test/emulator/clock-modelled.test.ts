/** clockFollowsRealTime: false — the emulator's clock moves only through the control API (the bench's lockstep with a modelled runtime clock). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../dev/emulator/index';

let emulator: RunningEmulator;
const NOW = Date.parse('2026-03-02T10:00:00Z');

beforeAll(async () => {
  emulator = await startEmulator({ orders: 10, now: NOW, clockFollowsRealTime: false });
});
afterAll(async () => {
  await emulator?.close();
});

async function clock(body?: unknown): Promise<string> {
  const res = await fetch(
    `${emulator.url}/_emulator/clock`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );
  return ((await res.json()) as { now: string }).now;
}

it('stands still between control moves and moves exactly by them', async () => {
  expect(await clock()).toBe(new Date(NOW).toISOString());
  await fetch(`${emulator.url}/_emulator/truth/orders`);
  expect(await clock()).toBe(new Date(NOW).toISOString());
  expect(await clock({ advance_seconds: 90 })).toBe(new Date(NOW + 90_000).toISOString());
});
