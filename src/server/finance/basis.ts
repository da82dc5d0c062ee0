/** The basis of P&L figures (spec 2.8) as one line: figures on different bases are never compared. Pure. */

export interface PnlBasis {
  refund_recognition?: unknown;
  tax_treated_as_cost?: unknown;
  ad_spend?: unknown;
}

export function basisText(basis: PnlBasis | null | undefined): string {
  if (!basis) return 'unknown';
  const part = (name: string, value: unknown): string => `${name}=${value === undefined || value === null ? 'unknown' : String(value)}`;
  return [part('tax_treated_as_cost', basis.tax_treated_as_cost), part('refund_recognition', basis.refund_recognition), part('ad_spend', basis.ad_spend)].join('; ');
}
