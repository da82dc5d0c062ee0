/**
 * Google's cap on developer metadata (developers.google.com/workspace/sheets/api/guides/metadata,
 * "About developer metadata"): a spreadsheet holds at most 30,000 characters of it, and so does each
 * sheet in it. Google does not say which characters count; taken strictly, the key and the value
 * both do, every location on a sheet (the sheet, its rows, its columns) counts towards that sheet,
 * and every entry in the file towards the spreadsheet.
 */
import type { DeveloperMetadataRecord, MetadataLocation } from './workbook';

export const METADATA_CHARACTER_LIMIT = 30_000;

const charactersOf = (m: { key: string; value: string | null }): number => m.key.length + (m.value ?? '').length;

const sheetOf = (location: MetadataLocation): number | null => ('sheetId' in location ? location.sheetId : null);

/** Throws when adding `added` to `existing` would pass the spreadsheet's or its sheet's 30,000 characters. */
export function checkMetadataLimit(
  existing: readonly DeveloperMetadataRecord[],
  added: { key: string; value: string | null; location: MetadataLocation },
): void {
  const size = charactersOf(added);
  const whole = existing.reduce((n, m) => n + charactersOf(m), size);
  if (whole > METADATA_CHARACTER_LIMIT)
    throw new Error(
      `The developer metadata of this spreadsheet would be ${whole} characters, past the limit of ${METADATA_CHARACTER_LIMIT}.`,
    );
  const sheetId = sheetOf(added.location);
  if (sheetId === null) return;
  const onSheet = existing.reduce((n, m) => n + (sheetOf(m.location) === sheetId ? charactersOf(m) : 0), size);
  if (onSheet > METADATA_CHARACTER_LIMIT)
    throw new Error(
      `The developer metadata of sheet ${sheetId} would be ${onSheet} characters, past the limit of ${METADATA_CHARACTER_LIMIT}.`,
    );
}
