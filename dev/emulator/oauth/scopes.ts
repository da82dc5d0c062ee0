/** The API's scopes (spec 5.1), each with the plain-words explanation shown on the consent page. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'store:read': 'See the store you choose: its name, shop domain, currency, time zone and data freshness.',
  'orders:read':
    'Read orders with their economics (revenue, costs, fees, ad spend, profit), line items, attribution and shipping country.',
  'products:read': 'Read products and variants with their prices and costs.',
  'profitability:read': 'Read profit-and-loss summaries and daily profitability figures.',
  offline_access: 'Keep this access while you are away, so scheduled syncs can run without you signing in again.',
};

export const KNOWN_SCOPES: readonly string[] = Object.keys(SCOPE_DESCRIPTIONS);

export type ScopeParse = { ok: true; scopes: string[] } | { ok: false; message: string };

/** Parses a space-separated scope string: non-empty, known scopes only; duplicates collapse. */
export function parseScope(raw: string | null): ScopeParse {
  if (raw === null || raw.trim() === '') return { ok: false, message: 'scope is required' };
  const scopes: string[] = [];
  for (const scope of raw.split(' ')) {
    if (scope === '') continue;
    if (!KNOWN_SCOPES.includes(scope)) return { ok: false, message: `unknown scope "${scope}"` };
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  return { ok: true, scopes };
}
