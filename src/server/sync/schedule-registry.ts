/**
 * Which spreadsheet each of this user's schedule triggers serves, in the user's properties.
 * Google may fire an add-on's clock trigger without its document; the trigger runs as the user
 * who created it, so their properties are where it can look itself up (by its unique id).
 * Bounded: at most 20 triggers per user (Google's limit), each an id and a spreadsheet id.
 */
import { userRecordMap } from '../platform/user-record-map';

const REGISTRY_KEY = 'ma.scheduleTriggers';

/**
 * A Properties failure reaches the caller (userRecordMap): taken for "none recorded", a trigger fired
 * without its document would think itself unrecorded and delete itself, ending the schedule for good.
 */
const registry = userRecordMap<string>(REGISTRY_KEY, (id) => (typeof id === 'string' ? id : null));

export function registerScheduleTrigger(triggerUid: string, spreadsheetId: string): void {
  const map = registry.read();
  // One schedule per spreadsheet and user: an older entry for the same spreadsheet goes.
  for (const uid of Object.keys(map)) if (map[uid] === spreadsheetId) delete map[uid];
  map[triggerUid] = spreadsheetId;
  registry.write(map);
}

export function spreadsheetOfTrigger(triggerUid: string): string | null {
  return registry.read()[triggerUid] ?? null;
}

export function forgetScheduleTrigger(triggerUid: string): void {
  registry.forget(triggerUid);
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
  return registry.read();
}
