/**
 * The "Where orders go" card's view (pure): the move to BigQuery is offered where the sidebar says
 * the sheets near Google's 10 M cells (the cells warning, from 70 %), never to a spreadsheet already
 * on BigQuery; the missing permission is read from the consent view the sidebar shows anyway.
 */
import { describe, expect, it } from 'vitest';
import type { CellsView, GoogleConsentView } from '../../src/contract/sidebar';
import { destinationView } from '../../src/server/sidebar/destination-view';
import { startSwitch } from '../../src/server/bigquery/switch-record';

const BIGQUERY = { kind: 'bigquery', projectId: 'acme-finance', datasetId: 'store_orders' } as const;
const cells = (percent: number): CellsView => ({
  used: percent * 100_000,
  limit: 10_000_000,
  percent,
  warn: percent >= 70,
  ordersWindow: null,
  offer: null,
});
const withheld: GoogleConsentView = {
  missing: ['write the store’s orders into your BigQuery dataset'],
  authorizationUrl: 'https://accounts.example/grant',
};

describe('destinationView', () => {
  it('offers the move with the figures once the cells warning shows, and not before', () => {
    expect(destinationView({ kind: 'sheets' }, null, cells(69.9)).offer).toBeNull();
    expect(destinationView({ kind: 'sheets' }, null, cells(72.5)).offer).toBe(
      'This spreadsheet uses 72.5% of Google’s 10,000,000 cells. Orders and line items can go to your BigQuery dataset instead, which holds the whole order history; the P&L, Checks and closes stay here.',
    );
  });

  it('offers nothing to a spreadsheet whose orders already go to BigQuery', () => {
    expect(destinationView(BIGQUERY, null, cells(95)).offer).toBeNull();
  });

  it('says the permission is missing only when BigQuery is chosen and its purpose is among the missing', () => {
    expect(destinationView(BIGQUERY, withheld, cells(1)).permissionMissing).toEqual({
      authorizationUrl: 'https://accounts.example/grant',
    });
    expect(destinationView({ kind: 'sheets' }, withheld, cells(1)).permissionMissing).toBeNull();
    const other: GoogleConsentView = { missing: ['run the automatic sync'], authorizationUrl: null };
    expect(destinationView(BIGQUERY, other, cells(1)).permissionMissing).toBeNull();
  });

  it('says how far a move into BigQuery has come, phase by phase, and nothing when none is under way', () => {
    expect(destinationView(BIGQUERY, null, cells(1)).move).toBeNull();
    const move = { ...startSwitch(BIGQUERY, 0), orders: 12_000, nextRow: 12_002 };
    expect(destinationView(BIGQUERY, null, cells(80), move).move).toBe(
      'Moving the orders these sheets hold into BigQuery (acme-finance.store_orders): 12,000 orders copied so far. ' +
        'Each sync carries the move on; the sheets keep every row until the copy is proven.',
    );
    const lines = { ...move, phase: 'line items' as const, lineItems: 30_500 };
    expect(destinationView(BIGQUERY, null, cells(80), lines).move).toMatch(
      /: all 12,000 orders and 30,500 line items copied so far\./,
    );
    const copied = { ...lines, phase: 'copied' as const, copiedAt: 1 };
    expect(destinationView(BIGQUERY, null, cells(80), copied).move).toMatch(
      /proven equal to the sheets: 12,000 orders, 30,500 line items\. .* emptied once the next tie-out in BigQuery is ✓\.$/,
    );
  });
});
