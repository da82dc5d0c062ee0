/**
 * One mark per Connect click, so a callback URL works once. Apps Script state tokens expire but can
 * be used any number of times within their hour; a second use of the same URL (browser history, a
 * reload, a leaked link) would redeem the code again, and the authorization server answers a
 * replayed code by revoking the tokens it issued for it (OAuth 2.1 4.1.3): the connection would
 * die. The callback takes the mark before any token request and refuses when it is gone.
 *
 * The mark also names the spreadsheet where Connect was clicked, so a callback can only complete
 * the flow of that spreadsheet. It lives in the connecting user's own properties: the callback
 * runs without a document (apps-script-facts.md) but always as that user.
 */
import { FLOW_MARK_PREFIX, STATE_TOKEN_SECONDS } from './constants';

interface FlowMark {
  spreadsheetId: string;
  /** Epoch ms when Connect was clicked. */
  at: number;
}

/** A user starting more flows than this without finishing them keeps only the newest. */
const MAX_OPEN_FLOWS = 10;
const LOCK_WAIT_MS = 10_000;

function parseMark(raw: string | null): FlowMark | null {
  if (!raw) return null;
  try {
    const mark = JSON.parse(raw) as Partial<FlowMark>;
    return typeof mark.spreadsheetId === 'string' && typeof mark.at === 'number'
      ? { spreadsheetId: mark.spreadsheetId, at: mark.at }
      : null;
  } catch {
    return null;
  }
}

function isLive(mark: FlowMark, now: number): boolean {
  return now - mark.at < STATE_TOKEN_SECONDS * 1000;
}

/** Marks a new flow for this spreadsheet and returns its id (an argument of the state token). */
export function openConnectFlow(spreadsheetId: string): string {
  const store = PropertiesService.getUserProperties();
  const now = Date.now();
  const open = Object.entries(store.getProperties())
    .filter(([key]) => key.indexOf(FLOW_MARK_PREFIX) === 0)
    .map(([key, raw]) => ({ key, mark: parseMark(raw) }));
  const live = open.filter((o) => o.mark !== null && isLive(o.mark, now)).sort((a, b) => b.mark!.at - a.mark!.at);
  const keep = new Set(live.slice(0, MAX_OPEN_FLOWS - 1).map((o) => o.key));
  for (const o of open) if (!keep.has(o.key)) store.deleteProperty(o.key);
  const id = Utilities.getUuid();
  store.setProperty(FLOW_MARK_PREFIX + id, JSON.stringify({ spreadsheetId, at: now }));
  return id;
}

/**
 * Takes the flow's mark (it cannot be taken twice: the user lock orders two callbacks racing with
 * the same URL). Null when the flow is unknown, already completed or older than its state token.
 */
export function takeConnectFlow(flowId: string | undefined): FlowMark | null {
  if (!flowId || !/^[0-9a-f-]{36}$/i.test(flowId)) return null;
  const lock = LockService.getUserLock();
  lock.waitLock(LOCK_WAIT_MS);
  try {
    const store = PropertiesService.getUserProperties();
    const key = FLOW_MARK_PREFIX + flowId;
    const mark = parseMark(store.getProperty(key));
    if (mark) store.deleteProperty(key);
    return mark && isLive(mark, Date.now()) ? mark : null;
  } finally {
    lock.releaseLock();
  }
}
