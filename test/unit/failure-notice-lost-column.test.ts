/** The failure e-mail for a deleted synced column (found by its tag): which one, and how to get it back. */
import { describe, expect, it } from 'vitest';
import { noticeBody } from '../../src/server/sync/failure-notice-text';

describe('failure e-mail: a deleted synced column', () => {
  it('names the column by its key and says how to get it back, never a copied sheet', () => {
    const body = noticeBody({
      code: 'sheet_layout',
      connectionLost: false,
      place: { table: 'Orders', column: null, header: 'id' },
      spreadsheetUrl: null,
    });
    expect(body).toContain('In the Orders sheet, the column "id" was deleted. Nothing was written.');
    expect(body).toContain('Edit → Undo');
    expect(body).not.toMatch(/more than one sheet/);
  });
});
