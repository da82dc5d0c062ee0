/**
 * Money is held in integer cents and published as `cents / 100`, so every published amount has at
 * most two decimals and every formula of spec 2.3 holds exactly on cents.
 */
export type Cents = number;

export function toAmount(cents: Cents): number {
  return cents / 100;
}

/** Rounds a decimal amount to cents, half away from zero. */
export function toCents(amount: number): Cents {
  return roundCents(amount * 100);
}

/**
 * Rounds a fractional cent value (e.g. a rate applied to cents) half away from zero; the epsilon
 * rounds 1.005 × 100 (= 100.4999… in binary floating point) up to 101, as written.
 */
export function roundCents(value: number): Cents {
  const rounded = Math.round(Math.abs(value) + 1e-9) * Math.sign(value);
  return rounded === 0 ? 0 : rounded;
}

/**
 * A margin percentage `numerator / denominator * 100` rounded to two decimals (half away from zero);
 * 0 when the denominator is zero or negative (spec 2.3 rule 5).
 */
export function marginPct(numerator: Cents, denominator: Cents): number {
  if (denominator <= 0) return 0;
  return roundCents((numerator * 10000) / denominator) / 100;
}
