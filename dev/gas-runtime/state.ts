import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeClock } from './clock.js';
import { CacheStore } from './services/cache.js';
import { PropertyStore } from './services/properties.js';
import type { TriggerRecord } from './services/triggers.js';
import type { SharedStores } from './stores.js';

/**
 * saveState/stateDir: one JSON file per store, so the next invocation is the next run of the same
 * spreadsheet. (The state-token key is deliberately not saved: tokens die with the process.)
 */

const FILES = {
  properties: 'properties.json',
  cache: 'cache.json',
  triggers: 'triggers.json',
  clock: 'clock.json',
  workbook: 'workbook.json',
  quotas: 'quotas.json',
} as const;

async function readJson(dir: string, file: string): Promise<unknown> {
  const full = path.join(dir, file);
  if (!existsSync(full)) return undefined;
  try {
    return JSON.parse(await readFile(full, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read runtime state ${full}: ${(error as Error).message}`);
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

export interface LoadedState {
  workbook: unknown;
}

export async function loadState(
  dir: string,
  stores: SharedStores,
  clock: RuntimeClock,
  keepClock: boolean,
): Promise<LoadedState> {
  const properties = (await readJson(dir, FILES.properties)) as Record<string, unknown> | undefined;
  if (properties) {
    stores.properties.script = PropertyStore.fromJSON(properties.script);
    stores.properties.document = PropertyStore.fromJSON(properties.document);
    stores.properties.user = PropertyStore.fromJSON(properties.user);
    stores.properties.users = {};
    for (const [email, json] of Object.entries(objectOf(properties.users)))
      stores.properties.users[email] = PropertyStore.fromJSON(json);
  }
  const cache = (await readJson(dir, FILES.cache)) as Record<string, unknown> | undefined;
  if (cache) {
    stores.caches.script = CacheStore.fromJSON(cache.script, clock);
    stores.caches.document = CacheStore.fromJSON(cache.document, clock);
    stores.caches.user = CacheStore.fromJSON(cache.user, clock);
    stores.caches.users = {};
    for (const [email, json] of Object.entries(objectOf(cache.users)))
      stores.caches.users[email] = CacheStore.fromJSON(json, clock);
  }
  const triggers = await readJson(dir, FILES.triggers);
  if (Array.isArray(triggers)) stores.triggers.splice(0, stores.triggers.length, ...(triggers as TriggerRecord[]));
  stores.quotas.load(await readJson(dir, FILES.quotas));
  const savedClock = (await readJson(dir, FILES.clock)) as { now?: unknown } | undefined;
  if (!keepClock && savedClock && typeof savedClock.now === 'number') clock.setNow(savedClock.now);
  return { workbook: await readJson(dir, FILES.workbook) };
}

export async function saveState(
  dir: string,
  stores: SharedStores,
  clock: RuntimeClock,
  workbook: unknown,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const write = (file: string, value: unknown): Promise<void> =>
    writeFile(path.join(dir, file), `${JSON.stringify(value, null, 1)}\n`, { mode: 0o600 });
  await write(FILES.properties, stores.properties);
  await write(FILES.cache, stores.caches);
  await write(FILES.triggers, stores.triggers);
  await write(FILES.clock, { now: clock.now() });
  await write(FILES.quotas, stores.quotas);
  if (workbook !== undefined) await write(FILES.workbook, workbook);
}
