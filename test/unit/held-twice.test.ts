/**
 * The tie-out query's rows of keys held more than once, parted from its day sums and named as
 * Checks says them (held-twice-sql.ts), and the ✗ they put on their days and months
 * (tieout-duplicates.ts markNamedDays).
 */
import { describe, expect, it } from 'vitest';
import { heldKeysOf } from '../../src/server/bigquery/held-twice-sql';
import { markNamedDays } from '../../src/server/finance/tieout-duplicates';
import type { TieoutRow } from '../../src/server/finance/tieout-rows';

const sumRow = (day: string) => ({
  day,
  currency: 'USD',
  row_count: '3',
  held_order: null,
  held_line: null,
  held_times: null,
});
const held = (day: string, order: string, line: string | null, times: string) => ({
  day,
  currency: null,
  row_count: null,
  held_order: order,
  held_line: line,
  held_times: times,
});

describe('keys held more than once', () => {
  it('parts the sums from the copies and names each key once with every day a copy is on', () => {
    const { sums, held: keys } = heldKeysOf([
      sumRow('2026-01-02'),
      held('2026-01-02', 'ord_a', null, '2'),
      held('2026-01-09', 'ord_a', null, '2'),
      held('2026-01-02', 'ord_b', 'li_1', '3'),
      held('2026-01-02', 'ord_b', 'li_1', '3'),
      held('2026-01-02', 'ord_b', 'li_1', '3'),
    ]);
    expect(sums).toEqual([sumRow('2026-01-02')]);
    expect(keys).toEqual([
      {
        days: ['2026-01-02'],
        words: 'line item li_1 of order ord_b is held 3 times in BigQuery (placed_day 2026-01-02)',
      },
      {
        days: ['2026-01-02', '2026-01-09'],
        words: 'order ord_a is held 2 times in BigQuery (placed_day 2026-01-02, 2026-01-09)',
      },
    ]);
  });

  it('turns the named days and their month ✗ (a "not compared" day too), naming the key once a period', () => {
    const row = (period: string, kind: 'day' | 'month', comparable = true): TieoutRow =>
      ({ period, kind, ok: true, comparable, orders: 1, figures: {}, pnlSheet: '', note: '' }) as unknown as TieoutRow;
    const rows = markNamedDays(
      [row('2026-01-02', 'day', false), row('2026-01-03', 'day'), row('2026-01', 'month')],
      [{ days: ['2026-01-02', '2026-01-09'], words: 'order ord_a is held 2 times' }],
      (words) => words.join('; '),
    );
    expect(rows.map((r) => [r.period, r.ok, r.note])).toEqual([
      ['2026-01-02', false, 'order ord_a is held 2 times'],
      ['2026-01-03', true, ''],
      ['2026-01', false, 'order ord_a is held 2 times'],
    ]);
  });
});
