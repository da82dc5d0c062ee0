/**
 * The basis of P&L figures (spec 2.8) as one line: figures on different bases are never compared.
 * Any profitability summary the sync reads records it; the finance sheets ask the service again
 * when the record is older than BASIS_MAX_AGE_MS (one summary request every few hours instead of
 * one per run).
 */
import type { SyncStateStore } from '../state/sync-state';

export const BASIS_MAX_AGE_MS = 6 * 3_600_000;

export interface PnlBasis {
  refund_recognition?: unknown;
  tax_treated_as_cost?: unknown;
  ad_spend?: unknown;
}

export function basisText(basis: PnlBasis | null | undefined): string {
  if (!basis) return 'unknown';
  const part = (name: string, value: unknown): string =>
    `${name}=${value === undefined || value === null ? 'unknown' : String(value)}`;
  return [
    part('tax_treated_as_cost', basis.tax_treated_as_cost),
    part('refund_recognition', basis.refund_recognition),
    part('ad_spend', basis.ad_spend),
  ].join('; ');
}

export function recordBasis(state: SyncStateStore, basis: PnlBasis | null | undefined, now: number): string {
  const text = basisText(basis);
  const saved = state.get('basis');
  if (saved.text !== text || saved.checkedAt === null || now - saved.checkedAt > 60_000)
    state.save('basis', { text, checkedAt: now });
  return text;
}

/** The recorded basis while fresh, else null (the caller asks the service). */
export function freshBasis(state: SyncStateStore, now: number): string | null {
  const saved = state.get('basis');
  return saved.text !== null &&
    saved.checkedAt !== null &&
    now - saved.checkedAt <= BASIS_MAX_AGE_MS &&
    now >= saved.checkedAt
    ? saved.text
    : null;
}
