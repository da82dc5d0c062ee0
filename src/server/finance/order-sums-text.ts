/**
 * The Orders day sums as property values, one group of values per half month. Every whole read
 * of the document store moves them (a bulk Properties call is billed per 16 KB it moves,
 * apps-script-cost-model.md), so they are written small: a line per day, its day of the month (left
 * out when it follows the line before), the counts (one when they agree) and the cents in base 64
 * (trailing zeros left out, net revenue as its difference from gross less refunds), and after a
 * second bar the rare parts: cost gaps alone as short text, with unread amounts or inconsistent
 * orders as JSON. A run that changes a few days changes only their half months' values, so
 * only those are written again (an hourly run's few corrected orders fall in a few of them).
 */
import { utf8Bytes } from '../platform/property-size';
import { TIEOUT_COMPARED } from '../sheets/schema';
import type { DaySums } from './order-day-sums';

/** Bytes per value, under Google's 9 KB per property value (the property size limit). */
const CHUNK_BYTES = 8_500;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Days that are not ISO dates (none today) go together, their day written out in full. */
const ODD_GROUP = 'x';
/** The second half of a month starts on this day. */
const SECOND_HALF = 16;

/** A day's group: its half month's first day ('2026-11-01', '2026-11-16'). */
function groupOf(day: string): string {
  if (!ISO_DAY.test(day)) return ODD_GROUP;
  return `${day.slice(0, 8)}${Number(day.slice(8)) < SECOND_HALF ? '01' : String(SECOND_HALF)}`;
}

const figureAt = (name: string): number => TIEOUT_COMPARED.findIndex((f) => f.figure === name);
const GROSS = figureAt('gross_revenue');
const REFUNDS = figureAt('refunds');
/** Net revenue is written as what it differs from gross less refunds by (mostly 0); '=': as it is. */
const NET = figureAt('net_revenue');

/** Unread amounts per figure (0: none), inconsistent orders listed, cost gaps, and those not listed when any. */
type Extras = [number[] | 0, string[], DaySums['gaps']] | [number[] | 0, string[], DaySums['gaps'], number];

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.';

/** A whole number in base 64 (DIGITS); anything else as written by String, marked (exact either way). */
function num(n: number): string {
  if (!Number.isSafeInteger(n)) return `~${String(n)}`;
  let rest = Math.abs(n);
  let out = '';
  do {
    out = DIGITS[rest % 64]! + out;
    rest = Math.floor(rest / 64);
  } while (rest > 0);
  return n < 0 ? `-${out}` : out;
}

function unnum(text: string): number {
  if (text.startsWith('~')) return Number(text.slice(1));
  const negative = text.startsWith('-');
  let n = 0;
  for (const c of negative ? text.slice(1) : text) {
    const digit = DIGITS.indexOf(c);
    if (digit < 0) return NaN;
    n = n * 64 + digit;
  }
  return negative ? -n : n;
}

/** Cost gaps alone (the usual extra): 'currency:orders:cents[:unread, when not 0]' per currency, ';' between. */
function gapsText(gaps: DaySums['gaps']): string {
  return Object.entries(gaps)
    .map(([currency, [orders, cents, unread = 0]]) =>
      [encodeURIComponent(currency), num(orders), num(cents), ...(unread === 0 ? [] : [num(unread)])].join(':'),
    )
    .join(';');
}

function gapsOf(text: string): DaySums['gaps'] {
  const gaps: DaySums['gaps'] = {};
  for (const entry of text.split(';')) {
    const [currency = '', ...numbers] = entry.split(':');
    const tally = numbers.map(unnum);
    if (tally.length < 2 || tally.length > 3 || tally.some((n) => !Number.isFinite(n)))
      throw new Error('unreadable day sums');
    gaps[decodeURIComponent(currency)] = [tally[0]!, tally[1]!, tally[2] ?? 0];
  }
  return gaps;
}

/** `after`: the day of the line before in the same group, if any. */
function line(day: string, s: DaySums, after: string | null): string {
  const iso = ISO_DAY.test(day);
  const follows = iso && after !== null && Number(day.slice(8)) === Number(after.slice(8)) + 1;
  const at = follows ? '' : iso ? String(Number(day.slice(8))) : encodeURIComponent(day);
  const agree = s.rows === s.count && s.counted === s.count && s.other === 0;
  const cents: Array<number | string> = s.cents.slice();
  const derived = s.cents[NET]! - (s.cents[GROSS]! - s.cents[REFUNDS]!);
  cents[NET] =
    Number.isSafeInteger(derived) && [GROSS, REFUNDS, NET].every((i) => Number.isSafeInteger(s.cents[i]))
      ? derived
      : `=${num(s.cents[NET]!)}`;
  while (cents.length > 0 && cents[cents.length - 1] === 0) cents.pop();
  const counts = (agree ? [s.count] : [s.rows, s.count, s.other, s.counted]).map(num).join(':');
  const fields = [at, [counts, ...cents.map((n) => (typeof n === 'string' ? n : num(n)))].join(',')];
  const unknown = s.unknown.some((n) => n !== 0) ? s.unknown : 0;
  const unlisted = s.unlisted ?? 0;
  const inconsistent = s.inconsistent.length > 0 || unlisted > 0;
  if (unknown !== 0 || inconsistent || Object.keys(s.gaps).length > 0)
    fields.push(
      unknown === 0 && !inconsistent
        ? gapsText(s.gaps)
        : JSON.stringify(
            (unlisted > 0
              ? [unknown, s.inconsistent, s.gaps, unlisted]
              : [unknown, s.inconsistent, s.gaps]) satisfies Extras,
          ),
    );
  return fields.join('|');
}

/** Each half month's values by group (groupOf; more than one value when a half month holds more than one's limit). */
export function encodeDaySums(days: ReadonlyMap<string, DaySums>): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  let before: string | null = null;
  for (const day of [...days.keys()].sort()) {
    const group = groupOf(day);
    const list = lines.get(group) ?? [];
    list.push(line(day, days.get(day)!, list.length > 0 ? before : null));
    lines.set(group, list);
    before = day;
  }
  const out = new Map<string, string[]>();
  for (const [group, list] of lines) out.set(group, pieces(list.join('\n')));
  return out;
}

/** The days of one group's values, joined in order. */
export function decodeDaySums(group: string, values: readonly string[], into: Map<string, DaySums>): void {
  let before = 0;
  for (const text of values.join('').split('\n')) {
    const bar = text.indexOf('|');
    if (bar < 0) throw new Error('unreadable day sums');
    const rest = text.slice(bar + 1);
    const extrasAt = rest.indexOf('|');
    const at = text.slice(0, bar);
    const numbers = extrasAt < 0 ? rest : rest.slice(0, extrasAt);
    const extras = extrasAt < 0 ? null : rest.slice(extrasAt + 1);
    const [countsText = '', ...centsText] = numbers.split(',');
    const counts = countsText.split(':').map(unnum);
    const read = centsText.map((text) => unnum(text.replace(/^=/, '')));
    if (
      ![1, 4].includes(counts.length) ||
      [...counts, ...read].some((n) => !Number.isFinite(n)) ||
      read.length > TIEOUT_COMPARED.length
    )
      throw new Error('unreadable day sums');
    const [rows, count, other, counted] = (counts.length === 1 ? [counts[0], counts[0], 0, counts[0]] : counts) as [
      number,
      number,
      number,
      number,
    ];
    const cents = Array.from({ length: TIEOUT_COMPARED.length }, (_, i) => read[i] ?? 0);
    if (!centsText[NET]?.startsWith('=')) cents[NET] = cents[NET]! + (cents[GROSS]! - cents[REFUNDS]!);
    const [unknown, inconsistent, gaps, unlisted = 0] = !extras
      ? [0, [], {}]
      : extras.startsWith('[')
        ? (JSON.parse(extras) as Extras)
        : [0, [], gapsOf(extras)];
    if (!Number.isSafeInteger(unlisted) || unlisted < 0) throw new Error('unreadable day sums');
    const dayOfMonth = at === '' ? before + 1 : Number(at);
    before = dayOfMonth;
    const day =
      group === ODD_GROUP ? decodeURIComponent(at) : `${group.slice(0, 8)}${String(dayOfMonth).padStart(2, '0')}`;
    into.set(day, {
      rows,
      count,
      other,
      counted,
      cents,
      unknown: Array.isArray(unknown) ? unknown : cents.map(() => 0),
      inconsistent,
      ...(unlisted > 0 ? { unlisted } : {}),
      gaps,
    });
  }
}

/** Text cut into pieces of at most CHUNK_BYTES (never inside a surrogate pair). */
function pieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_BYTES);
    while (end > start + 1 && utf8Bytes(text.slice(start, end)) > CHUNK_BYTES)
      end = start + Math.floor((end - start) * 0.9);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}
