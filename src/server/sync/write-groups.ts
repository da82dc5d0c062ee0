/**
 * The orders feed's queued pages cut into write groups, each one Values.batchUpdate under the
 * request size Google recommends (write-size.ts, as the strict runtime enforces it).
 */
import type { RowWrite } from '../sheets/row-writes';
import { rowWritesBytes, WRITE_PAYLOAD_BYTES } from '../sheets/write-size';

/** A page planned into row writes. */
export interface QueuedPage {
  orders: RowWrite[];
  lineItems: RowWrite[];
  /** The page's share of a Values.batchUpdate, as JSON (rowWritesBytes). */
  bytes: number;
  /** Counts the page once its rows are written. */
  counted: () => void;
  /** Earliest placement day among the page's changed orders: Daily P&L from there is stale. */
  minPlacedDate: string | null;
  maxUpdatedAt: string | null;
}

/**
 * The queued pages in one group, or one group a page when two pages write one row with different
 * column spans (a line item marked removed, then written whole): one batchUpdate applies its
 * ranges by column, not by page, so their order would be lost.
 */
export function writeGroups(pages: readonly QueuedPage[], heldBytes: number): QueuedPage[][] {
  // Pages are queued past one request's size while the API's minute has room, and pages planned at
  // flush time were queued by an estimate of their size: split by the rows planned.
  return bySize(pages, heldBytes).flatMap(groupWithoutClash);
}

/**
 * Consecutive pages in groups each under the request size Google recommends (a page over it alone);
 * the first carries the rows held to ride with the next write too. A page that does not fit whole
 * fills the group's room with its first rows and starts the next group with the rest: requests are
 * full, so the last group is small enough to ride with the closing write more often.
 */
function bySize(pages: readonly QueuedPage[], heldBytes: number): QueuedPage[][] {
  const out: QueuedPage[][] = [[]];
  let bytes = heldBytes;
  for (const whole of pages) {
    let page = whole;
    const room = WRITE_PAYLOAD_BYTES - bytes;
    const split = out[out.length - 1].length > 0 && page.bytes > room ? splitPage(page, room) : null;
    if (split) {
      out[out.length - 1].push(split[0]);
      bytes += split[0].bytes;
      page = split[1];
    }
    const last = out[out.length - 1];
    if (last.length === 0 || bytes + page.bytes <= WRITE_PAYLOAD_BYTES) {
      last.push(page);
      bytes += page.bytes;
    } else {
      out.push([page]);
      bytes = page.bytes;
    }
  }
  return out.filter((group) => group.length > 0);
}

/** Room below this is left empty rather than filled with part of a page. */
const SPLIT_MIN_BYTES = 100_000;

/** The page's first rows within `room` bytes and the rest (counted once, with the rest); null when no useful share fits. */
function splitPage(page: QueuedPage, room: number): [QueuedPage, QueuedPage] | null {
  if (room < SPLIT_MIN_BYTES) return null;
  const part = (share: number, head: boolean): QueuedPage => {
    const cut = <T>(rows: readonly T[]): T[] => {
      const at = Math.floor(rows.length * share);
      return head ? rows.slice(0, at) : rows.slice(at);
    };
    const orders = cut(page.orders);
    const lineItems = cut(page.lineItems);
    const bytes = rowWritesBytes(orders) + rowWritesBytes(lineItems);
    return { ...page, orders, lineItems, bytes, counted: head ? () => undefined : page.counted };
  };
  for (let share = room / page.bytes; share >= 0.1; share *= 0.9) {
    const head = part(share, true);
    if (head.bytes <= room) return [head, part(share, false)];
  }
  return null;
}

function groupWithoutClash(pages: readonly QueuedPage[]): QueuedPage[][] {
  const byRow = [new Map<number, { page: number; span: string }>(), new Map<number, { page: number; span: string }>()];
  let clash = false;
  pages.forEach((page, i) => {
    [page.orders, page.lineItems].forEach((writes, sheet) => {
      for (const w of writes) {
        const span = `${w.column}:${w.cells.length}`;
        const before = byRow[sheet].get(w.row);
        if (before && before.page !== i && before.span !== span) clash = true;
        byRow[sheet].set(w.row, { page: i, span });
      }
    });
  });
  return clash || pages.length <= 1 ? pages.map((p) => [p]) : [pages.slice()];
}
