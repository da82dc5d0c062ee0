import { describe, expect, it } from 'vitest';
import { aboutCount, chosenFitText, fillingText, fitText, heldFitText } from '../../src/sidebar/columns-text';

const fit = { essentials: 232_871, all: 114_402, chosen: 137_360, lineItemsPerOrder: 2.07, cellsPerOrder: 72.8 };

describe('the Columns card’s lines', () => {
  it('rounds "about" figures to three digits, so a shown 2× stays 2× within half a percent', () => {
    expect(aboutCount(232_871)).toBe('233,000');
    expect(aboutCount(114_402)).toBe('114,000');
    expect(aboutCount(999.9)).toBe('999');
    expect(aboutCount(1_004_999)).toBe('1,000,000');
  });

  it('says the fit at each width, and the current choice in cells per order', () => {
    expect(fitText(fit)).toBe(
      'In 10 M cells: about 233,000 orders with Essentials, 114,000 with All (2.07 line items per order).',
    );
    expect(chosenFitText(fit)).toBe('Your choice: ~73 cells per order, about 137,000 orders.');
  });

  it('before the first sync says the fit is known after it, with no guessed figure', () => {
    expect(fitText(null)).toMatch(/known after the first sync/);
    expect(fitText(null)).not.toMatch(/about \d/);
    expect(chosenFitText(null)).toBeNull();
  });

  it('says how far the fill pass is, only while it runs', () => {
    expect(fillingText({ orders: 12_345, columns: ['utm_campaign'] })).toBe(
      'Filling the added columns: 12,345 orders so far.',
    );
    expect(fillingText(null)).toBeNull();
  });

  it('after columns were removed, says what the sheets still hold and that only deleting the columns frees their space', () => {
    const held = { ...fit, held: 100_123, heldCellsPerOrder: 99.9, notSyncedColumns: 26 };
    expect(heldFitText(held)).toBe(
      'Your sheets now, with 26 columns no longer synced: ~100 cells per order, about 100,000 orders. Columns no longer synced still take space until you delete them (right-click the column letter → Delete column).',
    );
    expect(heldFitText({ ...held, notSyncedColumns: 1 })).toMatch(/^Your sheets now, with 1 column no longer synced:/);
    expect(heldFitText({ ...held, notSyncedColumns: 0 })).toBeNull();
    expect(heldFitText(fit)).toBeNull();
    expect(heldFitText(null)).toBeNull();
  });
});
