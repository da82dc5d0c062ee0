/**
 * Schedules whose trigger removed itself because it could not open its spreadsheet (open
 * failures), in the user's properties, by spreadsheet: the trigger ran as that user without its
 * document, so the document cannot say it. When access comes back the owner's sidebar tells why
 * the automatic sync is off and since when, instead of a bare "Off".
 * Bounded: one entry per spreadsheet, at most MAX_KEPT (the newest).
 */
const PROPERTY = 'ma.scheduleRemovals';
const MAX_KEPT = 20;

export interface ScheduleRemoval {
  /** When the trigger removed itself (epoch ms). */
  at: number;
  /** When the failed opens began (epoch ms). */
  since: number;
  runs: number;
}

function read(): Record<string, ScheduleRemoval> {
  let value: unknown;
  try {
    value = JSON.parse(PropertiesService.getUserProperties().getProperty(PROPERTY) ?? '{}');
  } catch {
    return {};
  }
  if (value === null || typeof value !== 'object') return {};
  const out: Record<string, ScheduleRemoval> = {};
  for (const [id, r] of Object.entries(value as Record<string, Partial<ScheduleRemoval>>)) {
    if (r && typeof r.at === 'number' && typeof r.since === 'number' && typeof r.runs === 'number')
      out[id] = { at: r.at, since: r.since, runs: r.runs };
  }
  return out;
}

function write(map: Record<string, ScheduleRemoval>): void {
  const props = PropertiesService.getUserProperties();
  const kept = Object.entries(map)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_KEPT);
  if (kept.length === 0) props.deleteProperty(PROPERTY);
  else props.setProperty(PROPERTY, JSON.stringify(Object.fromEntries(kept)));
}

export function recordScheduleRemoval(spreadsheetId: string, removal: ScheduleRemoval): void {
  write({ ...read(), [spreadsheetId]: removal });
}

export function scheduleRemovalOf(spreadsheetId: string): ScheduleRemoval | null {
  return read()[spreadsheetId] ?? null;
}

/** The user set the schedule again (or turned it off): the removal is no longer news. */
export function forgetScheduleRemoval(spreadsheetId: string): void {
  const map = read();
  if (!(spreadsheetId in map)) return;
  delete map[spreadsheetId];
  write(map);
}
