import type { ProfitabilitySummary } from '../api/types';

/** The P&L basis (spec 2.8) the synced figures are on, and a refresh under way after it changed (the basis change). */
export interface SheetsBasis {
  basis: { taxTreatedAsCost: boolean; refundRecognition: string; adSpend: string } | null;
  /** The basis before the change, while rows on it may remain. */
  previous: SheetsBasis['basis'];
  /** Epoch ms the refresh began; null when every row is on `basis`. */
  refreshingSince: number | null;
}

type Basis = ProfitabilitySummary['basis'];

export function basisOf(basis: Basis | null | undefined): SheetsBasis['basis'] {
  if (!basis) return null;
  // Only the spec's types are kept (2.8): the basis is saved as JSON, and a hostile nested value would overflow JSON.stringify.
  if (
    typeof basis.tax_treated_as_cost !== 'boolean' ||
    typeof basis.refund_recognition !== 'string' ||
    typeof basis.ad_spend !== 'string'
  )
    return null;
  return {
    taxTreatedAsCost: basis.tax_treated_as_cost,
    refundRecognition: basis.refund_recognition,
    adSpend: basis.ad_spend,
  };
}

export function basisWords(basis: SheetsBasis['basis']): string {
  if (!basis) return 'unknown basis';
  return `tax ${basis.taxTreatedAsCost ? 'treated as a cost' : 'not treated as a cost'}, refunds on the ${basis.refundRecognition.replace('_', ' ')}, ${basis.adSpend.replace('_', ' ')} ad spend`;
}
