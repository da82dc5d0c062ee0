/**
 * What Values.batchGetByDataFilter accepts, as Google documents it
 * (developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/batchGetByDataFilter):
 * an HTTP POST whose JSON body holds `dataFilters` (each exactly one of a1Range, gridRange,
 * developerMetadataLookup) and the read options. Where the documentation is silent this runtime takes
 * the stricter reading: a body past Google's recommended 2 MB payload
 * (developers.google.com/sheets/api/limits) is refused (413), as is a request without a filter.
 */
import { GoogleJsonResponseException } from './sheets-api-common';
import { checkPayloadSize, SHEETS_PAYLOAD_LIMIT, sheetsPayloadBytes } from './sheets-payload-limit';

export const METHOD = 'spreadsheets.values.batchGetByDataFilter';

/** Held to the Sheets API's one payload rule (sheets-payload-limit.ts). */
export const DATA_FILTER_PAYLOAD_LIMIT = SHEETS_PAYLOAD_LIMIT;
export const dataFilterPayloadBytes = sheetsPayloadBytes;

const FILTER_KINDS = ['a1Range', 'gridRange', 'developerMetadataLookup'] as const;

/** The A1 ranges of the request's filters, in order; a request Google would refuse throws its error. */
export function a1RangesOf(resource: unknown): string[] {
  checkPayloadSize(METHOD, resource, 'send fewer data filters a request');
  const filters = (resource as { dataFilters?: unknown } | null | undefined)?.dataFilters;
  if (!Array.isArray(filters) || filters.length === 0)
    throw new GoogleJsonResponseException(
      METHOD,
      "Invalid value at 'data_filters': at least one data filter is required",
      400,
    );
  return filters.map((filter, i) => {
    const kinds = FILTER_KINDS.filter((k) => (filter as Record<string, unknown> | null)?.[k] !== undefined);
    if (kinds.length !== 1)
      throw new GoogleJsonResponseException(
        METHOD,
        `Invalid value at 'data_filters[${i}]': a data filter sets exactly one of ${FILTER_KINDS.join(', ')}`,
        400,
      );
    const a1 = (filter as { a1Range?: unknown }).a1Range;
    if (kinds[0] !== 'a1Range' || typeof a1 !== 'string')
      throw new GoogleJsonResponseException(
        METHOD,
        `data_filters[${i}]: this runtime models a1Range filters only (${kinds[0]} given)`,
        400,
      );
    return a1;
  });
}
