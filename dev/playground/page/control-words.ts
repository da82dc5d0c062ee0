/** What an emulator control did, in words a person reads (never the raw JSON reply). Pure. */
type Json = Record<string, unknown>;

export interface ControlContext {
  /** The spreadsheet's time zone, to say the emulator's new time in. */
  timeZone: string;
  /** The amount moved, for the clock: "3 hours". */
  amount?: string;
  /** The change kind chosen, for Apply. */
  changeKind?: string;
  faultStatus?: string;
}

const asObject = (value: unknown): Json => (value !== null && typeof value === 'object' ? (value as Json) : {});
const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export function localTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = date.toLocaleString('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  return `${text} (${timeZone})`;
}

function orderName(order: Json): string {
  const number = typeof order.order_number === 'string' ? order.order_number : '';
  return number ? `order ${number} (${String(order.id)})` : `order ${String(order.id)}`;
}

export function describeControl(kind: string, value: unknown, context: ControlContext): string {
  const v = asObject(value);
  switch (kind) {
    case 'clock':
      return `Both clocks (the add-on's and the store's) moved ${context.amount ?? 'forward'}: it is now ${localTime(String(v.now), context.timeZone)}. Nothing syncs by itself unless a schedule is set; use Sync now or Fire the scheduled trigger.`;
    case 'orders': {
      const created = Array.isArray(v.created) ? v.created.length : 0;
      return `The store has ${plural(created, 'new order')}. Sync now to bring ${created === 1 ? 'it' : 'them'} into the Orders sheet.`;
    }
    case 'change':
      return `Applied "${context.changeKind ?? 'change'}" to ${orderName(asObject(v.data))}. Sync now to see it in the sheets.`;
    case 'hostile':
      return `${orderName(asObject(v.data))} now has a formula and HTML in its campaign fields. After a sync the sheet must show them as plain text.`;
    case 'vanish':
      return `Order ${String(v.vanished)} no longer exists in the API (deleted in the shop). The next reconciliation marks it gone in the Orders sheet.`;
    case 'revoke': {
      const revoked = Array.isArray(v.revoked) ? v.revoked.length : 0;
      return revoked === 0
        ? 'There was no connection to revoke.'
        : `The merchant revoked access (${plural(revoked, 'connection')}). The add-on's next request is refused; the sidebar should say so and offer Reconnect.`;
    }
    case 'switch-store':
      return `The connection now points at store ${String(v.store_id)} instead of ${String(v.previous_store_id)}. The add-on must refuse to write another store's data into these sheets.`;
    case 'disable-client':
      return "The add-on's OAuth client is disabled: every request is refused until you enable it again.";
    case 'enable-client':
      return "The add-on's OAuth client is enabled again.";
    case 'faults': {
      const pending = Array.isArray(v.pending) ? v.pending.map(asObject) : [];
      const calls = pending.reduce((n, f) => n + Number(f.remaining ?? 0), 0);
      return `The next ${plural(calls, 'API request')} will fail with HTTP ${context.faultStatus ?? '?'}. Sync now to see how the add-on copes; Clear ends the faults.`;
    }
    case 'clear-faults': {
      const cleared = Number(v.cleared ?? 0);
      return cleared === 0
        ? 'There were no pending faults: the API answers normally.'
        : `Cleared ${plural(cleared, 'pending fault')}: the API answers normally again.`;
    }
    default:
      return 'Done.';
  }
}

/** A run of the scheduled trigger's handler, in words. */
export function describeScheduledRun(value: unknown): string {
  const v = asObject(value);
  const message = typeof v.message === 'string' && v.message ? v.message : '';
  const outcome = typeof v.outcome === 'string' ? v.outcome : '';
  const rows = Number(v.rowsWritten ?? 0);
  return `The scheduled sync ran${outcome ? ` (${outcome})` : ''}: ${plural(rows, 'row')} written.${message ? ` ${message}` : ''} See the Sync log below.`;
}
