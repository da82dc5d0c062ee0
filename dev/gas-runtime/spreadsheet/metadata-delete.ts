/**
 * DeleteDeveloperMetadataRequest (developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/request#deletedevelopermetadatarequest):
 * "the data filter describing the criteria used to select which developer metadata entry to
 * delete", answered with the deleted entries (DeleteDeveloperMetadataResponse). Modelled: a
 * developerMetadataLookup by metadataId, metadataKey, metadataValue and a sheet's location,
 * matched INTERSECTING unless EXACT_LOCATION is asked (DeveloperMetadataLookup: "If left
 * unspecified, this field assumes a default value of INTERSECTING"); other filters are refused.
 * Google does not say what a filter matching nothing does: the stricter reading refuses it.
 */
import type { DeveloperMetadataRecord, Workbook } from './workbook';

interface Lookup {
  metadataId?: unknown;
  metadataKey?: unknown;
  metadataValue?: unknown;
  metadataLocation?: { sheetId?: unknown; spreadsheet?: unknown; dimensionRange?: unknown };
  locationMatchingStrategy?: unknown;
  locationType?: unknown;
  visibility?: unknown;
}

export function deleteDeveloperMetadata(
  workbook: Workbook,
  body: Record<string, unknown>,
  i: number,
): DeveloperMetadataRecord[] {
  const where = `Invalid requests[${i}].deleteDeveloperMetadata`;
  const filter = (body.dataFilter ?? {}) as { developerMetadataLookup?: Lookup };
  const lookup = filter.developerMetadataLookup;
  if (lookup === undefined || Object.keys(filter).length !== 1)
    throw new Error(`${where}: the local runtime models a dataFilter of developerMetadataLookup only.`);
  if (lookup.locationType !== undefined || lookup.visibility !== undefined)
    throw new Error(`${where}: the local runtime models lookups by id, key, value and sheet location only.`);
  const location = lookup.metadataLocation;
  if (location !== undefined && (location.sheetId === undefined || Object.keys(location).length !== 1))
    throw new Error(`${where}: the local runtime models sheet locations (metadataLocation.sheetId) only.`);
  const strategy = lookup.locationMatchingStrategy ?? 'INTERSECTING_LOCATION';
  if (strategy !== 'INTERSECTING_LOCATION' && strategy !== 'EXACT_LOCATION')
    throw new Error(`${where}: locationMatchingStrategy must be EXACT_LOCATION or INTERSECTING_LOCATION.`);
  if (lookup.metadataId === undefined && lookup.metadataKey === undefined && location === undefined)
    throw new Error(`${where}: the lookup must name an id, a key or a location.`);
  const matches = (m: DeveloperMetadataRecord): boolean =>
    (lookup.metadataId === undefined || m.id === lookup.metadataId) &&
    (lookup.metadataKey === undefined || m.key === lookup.metadataKey) &&
    (lookup.metadataValue === undefined || m.value === lookup.metadataValue) &&
    (location === undefined ||
      (m.location.type !== 'SPREADSHEET' &&
        m.location.sheetId === location.sheetId &&
        (strategy === 'INTERSECTING_LOCATION' || m.location.type === 'SHEET')));
  const deleted = workbook.developerMetadata.filter(matches);
  if (deleted.length === 0) throw new Error(`${where}: no developer metadata matches the data filter.`);
  for (const m of deleted) workbook.removeDeveloperMetadata(m.id);
  return deleted;
}
