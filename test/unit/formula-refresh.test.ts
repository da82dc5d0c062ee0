import { describe, expect, it } from 'vitest';
import { lowerCasedCalls, usesAddOnFunction } from '../../src/server/functions/refresh';

describe('formulas re-entered after a sync', () => {
  it('finds calls of the add-on functions, not other text', () => {
    expect(usesAddOnFunction('=PROFIT_SUMMARY(A1,B1,"net_profit")')).toBe(true);
    expect(usesAddOnFunction('=SUM(1, ma_freshness ())')).toBe(true);
    expect(usesAddOnFunction('=SUM(A1:A3)')).toBe(false);
    expect(usesAddOnFunction('="PROFIT_SUMMARY"')).toBe(false);
  });
  it('the interim text differs only in the case of those names, so the cell keeps working', () => {
    const formula = '=PROFIT_SUMMARY(A1,B1,"NET_PROFIT")+PROFIT_DAILY(A1,B1)';
    const interim = lowerCasedCalls(formula);
    expect(interim).toBe('=profit_summary(A1,B1,"NET_PROFIT")+profit_daily(A1,B1)');
    expect(interim.toUpperCase()).toBe(formula.toUpperCase());
  });
});
