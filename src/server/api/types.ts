/**
 * Domain names for the API's shapes (spec section 2), aliases of the OpenAPI-generated schema
 * (`npm run gen:api-types` → generated/schema.d.ts), so the shapes are written down once.
 */
import type { components } from './generated/schema';

type Schemas = components['schemas'];

export type Order = Schemas['Order'];
export type LineItem = Schemas['LineItem'];
export type Attribution = Schemas['Attribution'];
export type Product = Schemas['Product'];
export type Variant = Schemas['Variant'];
export type DailyRow = Schemas['DailyRow'];
export type ProfitTotals = Schemas['Totals'];
export type ProfitabilitySummary = Schemas['Summary'];
export type Account = Schemas['Account'];
export type Store = Schemas['Store'];

/** The `totals` fields of spec 2.8 in the spec's order (also the daily row's figures, 2.9). */
export const PROFIT_TOTALS_FIELDS = [
  'gross_revenue',
  'refunds',
  'net_revenue',
  'cogs',
  'ad_spend',
  'payment_fees',
  'fulfillment_cost',
  'product_margin_cm1',
  'gross_profit_cm2',
  'contribution_margin_cm3',
  'ebitda',
  'net_profit',
  'shipping_revenue',
  'discounts',
  'tax',
  'shipping_cost',
  'variable_costs',
  'opex',
  'amortised_expenses',
  'interest_expense',
] as const satisfies ReadonlyArray<keyof ProfitTotals>;

export type ProfitTotalsField = (typeof PROFIT_TOTALS_FIELDS)[number];

type MissingTotalsField = Exclude<keyof ProfitTotals, ProfitTotalsField>;
/** Fails to compile when the generated Totals gain a field the list above lacks. */
export const TOTALS_FIELDS_COMPLETE: [MissingTotalsField] extends [never] ? true : MissingTotalsField = true;
