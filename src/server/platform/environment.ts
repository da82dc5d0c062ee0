/**
 * What each kind of execution found of its context, for the first real deployment: Google's pages
 * leave open whether an add-on's clock trigger has its document, and whether Intl time zones work
 * on Apps Script V8 (apps-script-facts.md). Each kind records its own observation — for this user
 * and spreadsheet in their user properties (`ma.environment.<spreadsheet id>`), formulas (which
 * cannot write properties) in the document cache — and the menu's "Check the add-on's environment"
 * shows them. Written only when something changed or a day has passed, so polling stays cheap.
 */
import { currentSpreadsheetId, hasActiveDocument } from './context';
import { realDocumentProperties } from './properties';

export type ExecutionKind = 'sidebar' | 'scheduled' | 'callback' | 'formula';
export const EXECUTION_KINDS: readonly ExecutionKind[] = ['sidebar', 'scheduled', 'callback', 'formula'];

export interface EnvironmentSnapshot {
  /** Epoch ms of the observation. */
  at: number;
  documentProperties: boolean;
  activeSpreadsheet: boolean;
  documentLock: boolean;
  /** Intl.DateTimeFormat with an IANA zone agrees with Utilities.formatDate; null when not checked. */
  intlTimeZones: boolean | null;
  /** The OAuth2 library (manifest: apps-script-oauth2 version 43) is loaded. */
  oauth2Library: boolean;
}

const DAY_MS = 86_400_000;
const FORMULA_CACHE_KEY = 'ma.environment.formula';
const FORMULA_CACHE_SECONDS = 21_600;

function userKey(spreadsheetId: string): string {
  return `ma.environment.${spreadsheetId}`;
}

/** Intl with an IANA zone, checked once against Utilities.formatDate (no service call: Utilities runs in the script). */
function intlTimeZonesWork(): boolean {
  try {
    const instant = new Date(Date.UTC(2024, 6, 1, 12, 0, 0));
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(instant);
    const hour = parts.filter((p) => p.type === 'hour').map((p) => p.value)[0];
    return hour === Utilities.formatDate(instant, 'America/New_York', 'HH');
  } catch {
    return false;
  }
}

export function observeEnvironment(): EnvironmentSnapshot {
  let documentLock = false;
  try {
    documentLock = LockService.getDocumentLock() !== null;
  } catch {
    documentLock = false;
  }
  return {
    at: Date.now(),
    documentProperties: realDocumentProperties() !== null,
    activeSpreadsheet: hasActiveDocument(),
    documentLock,
    intlTimeZones: intlTimeZonesWork(),
    oauth2Library: typeof OAuth2 !== 'undefined' && typeof OAuth2.createService === 'function',
  };
}

function sameFacts(a: EnvironmentSnapshot | undefined, b: EnvironmentSnapshot): boolean {
  return (
    !!a &&
    a.documentProperties === b.documentProperties &&
    a.activeSpreadsheet === b.activeSpreadsheet &&
    a.documentLock === b.documentLock &&
    a.intlTimeZones === b.intlTimeZones &&
    a.oauth2Library === b.oauth2Library
  );
}

type Recorded = Partial<Record<ExecutionKind, EnvironmentSnapshot>>;

function readRecorded(raw: string | null): Recorded {
  try {
    const value: unknown = JSON.parse(raw ?? '{}');
    return value !== null && typeof value === 'object' ? (value as Recorded) : {};
  } catch {
    return {};
  }
}

/**
 * Records what this execution found, as `kind`, for the spreadsheet it serves (`spreadsheetId`
 * when the execution has no document). Returns the snapshot when it is new or changed (the first
 * scheduled run notes it in the Sync log), else null. Never throws: diagnostics must not break a run.
 */
export function recordEnvironment(
  kind: Exclude<ExecutionKind, 'formula'>,
  spreadsheetId?: string | null,
): EnvironmentSnapshot | null {
  try {
    const id = spreadsheetId ?? currentSpreadsheetId();
    if (!id) return null;
    const snapshot = observeEnvironment();
    const props = PropertiesService.getUserProperties();
    const recorded = readRecorded(props.getProperty(userKey(id)));
    const before = recorded[kind];
    const changed = !sameFacts(before, snapshot);
    if (!changed && before && snapshot.at - before.at < DAY_MS) return null;
    recorded[kind] = snapshot;
    props.setProperty(userKey(id), JSON.stringify(recorded));
    return changed ? snapshot : null;
  } catch (e) {
    console.warn(`[environment] could not record the ${kind} context: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

/** A custom function's observation, in the document cache (one read per formula; a write at most every 6 hours). */
export function recordFormulaEnvironment(cache: GoogleAppsScript.Cache.Cache | null): void {
  if (!cache) return;
  try {
    if (cache.get(FORMULA_CACHE_KEY) !== null) return;
    cache.put(FORMULA_CACHE_KEY, JSON.stringify(observeEnvironment()), FORMULA_CACHE_SECONDS);
  } catch {
    // Diagnostics never break a formula.
  }
}

export function recordedEnvironments(spreadsheetId: string): Recorded {
  const recorded = readRecorded(PropertiesService.getUserProperties().getProperty(userKey(spreadsheetId)));
  const cache = CacheService.getDocumentCache();
  const formula = cache ? cache.get(FORMULA_CACHE_KEY) : null;
  if (formula) {
    try {
      recorded.formula = JSON.parse(formula) as EnvironmentSnapshot;
    } catch {
      // an unreadable entry shows as not seen
    }
  }
  return recorded;
}

const LABELS: Record<ExecutionKind, string> = {
  sidebar: 'Sidebar',
  scheduled: 'Scheduled run',
  callback: 'Connect (the OAuth callback)',
  formula: 'Formula (custom function)',
};

const yesNo = (v: boolean | null): string => (v === null ? 'not checked' : v ? 'yes' : 'NO');

/** One line of facts, as the Sync log and the report show them. */
export function environmentLine(s: EnvironmentSnapshot): string {
  return `document properties ${yesNo(s.documentProperties)}, active spreadsheet ${yesNo(s.activeSpreadsheet)}, document lock ${yesNo(s.documentLock)}, Intl time zones ${yesNo(s.intlTimeZones)}, OAuth2 library (v43) ${yesNo(s.oauth2Library)}`;
}

export function environmentReport(recorded: Recorded, timeZone: string): string {
  return EXECUTION_KINDS.map((kind) => {
    const s = recorded[kind];
    if (!s) return `${LABELS[kind]}: not seen yet for you in this spreadsheet.`;
    return `${LABELS[kind]} (${Utilities.formatDate(new Date(s.at), timeZone, 'yyyy-MM-dd HH:mm')}): ${environmentLine(s)}.`;
  }).join('\n\n');
}
