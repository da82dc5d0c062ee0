/**
 * A small map kept as one JSON user property (the user's own records, bounded by the caller): each
 * entry checked on the way in, so a damaged or older value reads as absent, never as a wrong one.
 * Only an absent or unparsable property reads as empty; a Properties failure (the daily quota, an
 * outage) reaches the caller, who must not take it for "nothing recorded".
 */
export interface UserRecordMap<T> {
  read(): Record<string, T>;
  /** Writes the map (the newest `keep` entries by `newest`, when given); an empty map deletes the property. */
  write(map: Record<string, T>): void;
  /** Removes one entry; no write when it was not there. */
  forget(key: string): void;
}

export function userRecordMap<T>(
  property: string,
  entryOf: (value: unknown) => T | null,
  bound?: { keep: number; newest: (entry: T) => number },
): UserRecordMap<T> {
  const read = (): Record<string, T> => {
    const raw = PropertiesService.getUserProperties().getProperty(property);
    let value: unknown;
    try {
      value = JSON.parse(raw ?? '{}');
    } catch {
      return {};
    }
    if (value === null || typeof value !== 'object') return {};
    const out: Record<string, T> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      const checked = entryOf(entry);
      if (checked !== null) out[key] = checked;
    }
    return out;
  };
  const write = (map: Record<string, T>): void => {
    const props = PropertiesService.getUserProperties();
    let entries = Object.entries(map);
    if (bound) entries = entries.sort((a, b) => bound.newest(b[1]) - bound.newest(a[1])).slice(0, bound.keep);
    if (entries.length === 0) props.deleteProperty(property);
    else props.setProperty(property, JSON.stringify(Object.fromEntries(entries)));
  };
  const forget = (key: string): void => {
    const map = read();
    if (!(key in map)) return;
    delete map[key];
    write(map);
  };
  return { read, write, forget };
}

/** The entry when it is an object whose named fields are all numbers, else null. */
export function numbersEntry<K extends string>(fields: readonly K[]): (value: unknown) => Record<K, number> | null {
  return (value) => {
    if (value === null || typeof value !== 'object') return null;
    const out = {} as Record<K, number>;
    for (const field of fields) {
      const n = (value as Record<string, unknown>)[field];
      if (typeof n !== 'number') return null;
      out[field] = n;
    }
    return out;
  };
}
