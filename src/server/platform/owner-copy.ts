/**
 * The schedule owner's copy of a spreadsheet's document state, in the owner's user properties.
 *
 * Why: Google may run an add-on's clock trigger without its document (apps-script-facts.md), and
 * then no execution can read that spreadsheet's document properties. The trigger runs as the user
 * who created it, so that user's properties are the one store it surely reaches. The copy is
 * taken from the document properties when the owner sets the schedule and after each sync run of
 * the owner that has the document; a documentless run reads and writes the copy (noting which
 * keys it wrote), and the owner's next execution with the document adopts those keys into the
 * document properties (the truth every editor and formula reads) and takes a fresh copy.
 *
 * Keys: `d:<spreadsheet id>:<document key>`, plus `d:<spreadsheet id>#written` (JSON list).
 *
 * Small: Google gives a user 500 KB of properties for the add-on, shared by every spreadsheet they
 * schedule (guides/services/quotas), so the copy leaves out the Orders day sums (most of a copy:
 * ~50 KB at 2,000 orders), which a run without them rebuilds by reading the Orders sheet once. What
 * such a run keeps of them is given up again when the store is full (the document's are then
 * dropped at adoption, and the next run rebuilds them); only when the rest does not fit either
 * does the run stop, saying what to do (OwnerCopyFullError), never with Google's raw quota text.
 */

import { forgetOwnerCopyNote, noteOwnerCopyWritten } from './owner-copy-note';
import { isPropertyStoreFull, OwnerCopyFullError } from './owner-copy-full';
// The Orders day sums (order-sums-store): rebuilt from the Orders sheet by a run that lacks them.
import { isDaySumsKey } from './full-store-checkpoint';

type Properties = GoogleAppsScript.Properties.Properties;

const prefixOf = (spreadsheetId: string): string => `d:${spreadsheetId}:`;
const writtenKeyOf = (spreadsheetId: string): string => `d:${spreadsheetId}#written`;

function userProperties(): Properties {
  return PropertiesService.getUserProperties();
}

function readWritten(user: Properties, spreadsheetId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(user.getProperty(writtenKeyOf(spreadsheetId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** A Properties look-alike over the owner's copy: what a documentless run uses as document properties. */
export function ownerCopyOfDocumentState(spreadsheetId: string): Properties {
  const user = userProperties();
  const prefix = prefixOf(spreadsheetId);
  const written = new Set(readWritten(user, spreadsheetId));
  const noteWritten = (keys: string[]): void => {
    noteOwnerCopyWritten(spreadsheetId, keys);
    const before = written.size;
    for (const k of keys) written.add(k);
    if (written.size !== before) user.setProperty(writtenKeyOf(spreadsheetId), JSON.stringify([...written]));
  };
  const all = (): Record<string, string> => {
    const out: Record<string, string> = {};
    const raw = user.getProperties();
    for (const key of Object.keys(raw)) if (key.indexOf(prefix) === 0) out[key.slice(prefix.length)] = raw[key]!;
    return out;
  };
  let daySumsGivenUp = false;
  /** Writes `values`; the store full, gives up the day sums (theirs and the document's, at adoption) and tries once more. */
  const write = (values: Record<string, string>): void => {
    const prefixed = (keep: (key: string) => boolean): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const key of Object.keys(values)) if (keep(key)) out[prefix + key] = values[key]!;
      return out;
    };
    if (!daySumsGivenUp) {
      try {
        user.setProperties(prefixed(() => true));
        noteWritten(Object.keys(values));
        return;
      } catch (e) {
        if (!isPropertyStoreFull(e)) throw e;
      }
      daySumsGivenUp = true;
      const sums = Object.keys(all()).filter(isDaySumsKey);
      for (const key of sums) user.deleteProperty(prefix + key);
      noteWritten([...sums, ...Object.keys(values).filter(isDaySumsKey)]);
    }
    const rest = prefixed((key) => !isDaySumsKey(key));
    if (Object.keys(rest).length === 0) return;
    try {
      user.setProperties(rest);
    } catch (e) {
      if (isPropertyStoreFull(e)) throw new OwnerCopyFullError();
      throw e;
    }
    noteWritten(Object.keys(values).filter((key) => !isDaySumsKey(key)));
  };
  const copy = {
    getProperty: (key: string) => (daySumsGivenUp && isDaySumsKey(key) ? null : user.getProperty(prefix + key)),
    getProperties: all,
    getKeys: () => Object.keys(all()),
    setProperty(key: string, value: string) {
      write({ [key]: value });
      return copy;
    },
    setProperties(values: Record<string, string>, deleteAllOthers?: boolean) {
      if (deleteAllOthers) for (const key of Object.keys(all())) if (!(key in values)) copy.deleteProperty(key);
      write(values);
      return copy;
    },
    deleteProperty(key: string) {
      user.deleteProperty(prefix + key);
      noteWritten([key]);
      return copy;
    },
    deleteAllProperties() {
      for (const key of Object.keys(all())) copy.deleteProperty(key);
      return copy;
    },
  };
  return copy as unknown as Properties;
}

/** Other user properties written with the copy, from the user's store as read whole (`stored`): `written()` once stored. */
export type RidingUserWrite = (stored: Readonly<Record<string, string>>) => {
  values: Record<string, string>;
  written: () => void;
};

const nothingRides: RidingUserWrite = () => ({ values: {}, written: () => undefined });

/**
 * Replaces the owner's copy with the document's properties as they are now, but the day sums (3
 * service calls), with `riding`'s keys in the same write. A store too full for it leaves the copy
 * as it was and says so: the next run without the document then stops with the same words
 * (OwnerCopyFullError).
 */
export function takeOwnerCopy(
  spreadsheetId: string,
  documentProps: Properties,
  riding: RidingUserWrite = nothingRides,
): void {
  const user = userProperties();
  const prefix = prefixOf(spreadsheetId);
  const doc = documentProps.getProperties();
  const current = user.getProperties();
  for (const key of Object.keys(current)) {
    const name = key.slice(prefix.length);
    const stale = key.indexOf(prefix) === 0 && (!(name in doc) || isDaySumsKey(name));
    if (stale || key === writtenKeyOf(spreadsheetId)) user.deleteProperty(key);
  }
  const rider = riding(current);
  const values: Record<string, string> = { ...rider.values };
  for (const key of Object.keys(doc))
    if (!isDaySumsKey(key) && current[prefix + key] !== doc[key]) values[prefix + key] = doc[key]!;
  if (Object.keys(values).length === 0) return;
  try {
    user.setProperties(values);
    rider.written();
  } catch (e) {
    if (!isPropertyStoreFull(e)) throw e;
    console.error(`[owner copy] ${new OwnerCopyFullError().userMessage}`);
  }
}

/**
 * What a documentless run wrote goes into the document properties (the owner's execution with the
 * document calls this, under the document lock), then the copy is taken afresh. Returns the keys adopted.
 * `keysFirst` (a sync run, which no note brought here): the written keys are looked at before the
 * note, whose cache is left alone when there are none (the usual case; a sidebar that sees a stale
 * note adopts nothing and forgets it).
 */
export function adoptOwnerCopy(spreadsheetId: string, documentProps: Properties, keysFirst = false): string[] {
  const user = userProperties();
  if (keysFirst && readWritten(user, spreadsheetId).length === 0) return [];
  // Forgotten first: a write the run makes after this read notes it again (the owner-copy note).
  forgetOwnerCopyNote(spreadsheetId);
  const written = readWritten(user, spreadsheetId);
  if (written.length === 0) return [];
  const prefix = prefixOf(spreadsheetId);
  const set: Record<string, string> = {};
  for (const key of written) {
    const value = user.getProperty(prefix + key);
    if (value === null) documentProps.deleteProperty(key);
    else set[key] = value;
  }
  if (Object.keys(set).length > 0) documentProps.setProperties(set);
  takeOwnerCopy(spreadsheetId, documentProps);
  return written;
}

/** True when the user holds a copy of this spreadsheet's state (they own its schedule). */
export function hasOwnerCopy(spreadsheetId: string): boolean {
  const prefix = prefixOf(spreadsheetId);
  return userProperties()
    .getKeys()
    .some((k) => k.indexOf(prefix) === 0);
}

/** Forgets the copy (the schedule is no longer this user's). */
export function dropOwnerCopy(spreadsheetId: string): void {
  const user = userProperties();
  const prefix = prefixOf(spreadsheetId);
  for (const key of user.getKeys())
    if (key.indexOf(prefix) === 0 || key === writtenKeyOf(spreadsheetId)) user.deleteProperty(key);
}
