/**
 * Which spreadsheet each of this user's schedule triggers serves, in the user's properties.
 * Google may fire an add-on's clock trigger without its document; the trigger runs as the user
 * who created it, so their properties are where it can look itself up (by its unique id).
 * Bounded: at most 20 triggers per user (Google's limit), each an id and a spreadsheet id.
 */
const REGISTRY_KEY = 'ma.scheduleTriggers';

/**
 * Only an absent or unreadable record means "none recorded". Any other failure (Google's daily
 * Properties quota, an outage) reaches the caller: taken for "none", a trigger fired without its
 * document would think itself unrecorded and delete itself, ending the user's schedule for good.
 */
function read(): Record<string, string> {
  const raw = PropertiesService.getUserProperties().getProperty(REGISTRY_KEY);
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '{}');
  } catch {
    return {};
  }
  if (value === null || typeof value !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [uid, id] of Object.entries(value as Record<string, unknown>)) if (typeof id === 'string') out[uid] = id;
  return out;
}

function write(map: Record<string, string>): void {
  const props = PropertiesService.getUserProperties();
  if (Object.keys(map).length === 0) props.deleteProperty(REGISTRY_KEY);
  else props.setProperty(REGISTRY_KEY, JSON.stringify(map));
}

export function registerScheduleTrigger(triggerUid: string, spreadsheetId: string): void {
  const map = read();
  // One schedule per spreadsheet and user: an older entry for the same spreadsheet goes.
  for (const uid of Object.keys(map)) if (map[uid] === spreadsheetId) delete map[uid];
  map[triggerUid] = spreadsheetId;
  write(map);
}

export function spreadsheetOfTrigger(triggerUid: string): string | null {
  return read()[triggerUid] ?? null;
}

export function forgetScheduleTrigger(triggerUid: string): void {
  const map = read();
  if (!(triggerUid in map)) return;
  delete map[triggerUid];
  write(map);
}

/** Deletes this user's trigger with that id, if it still exists (a trigger removing itself). */
export function deleteOwnTrigger(triggerUid: string): boolean {
  for (const trigger of ScriptApp.getProjectTriggers()) {
    if (trigger.getUniqueId() === triggerUid) {
      ScriptApp.deleteTrigger(trigger);
      return true;
    }
  }
  return false;
}

/** Every schedule trigger of this user and the spreadsheet it serves (trigger id → spreadsheet id). */
export function scheduleTriggers(): Record<string, string> {
  return read();
}
