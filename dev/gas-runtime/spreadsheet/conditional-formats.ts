/**
 * Conditional format rules as the Sheets API takes them (spreadsheets.batchUpdate
 * addConditionalFormatRule; developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/sheets#ConditionalFormatRule).
 * The runtime keeps each rule on its sheet, in the API's order (index 0 first), and draws nothing:
 * the playground or a test reads them back. Checked as strictly as the API documents:
 * every range on the same grid, a boolean rule (gradient rules are not modelled), a condition
 * type the API names, CUSTOM_FORMULA with exactly one value starting with "=", and a format
 * holding only what conditional formatting may set ("bold, italic, strikethrough, foreground
 * color and background color" per the ConditionalFormatRule reference).
 */

export interface GridRangeRecord {
  sheetId: number;
  startRowIndex?: number;
  endRowIndex?: number;
  startColumnIndex?: number;
  endColumnIndex?: number;
}

export interface ConditionalFormatRecord {
  ranges: GridRangeRecord[];
  condition: { type: string; values: string[] };
  format: Record<string, unknown>;
}

const CONDITION_TYPES = new Set([
  'NUMBER_GREATER',
  'NUMBER_GREATER_THAN_EQ',
  'NUMBER_LESS',
  'NUMBER_LESS_THAN_EQ',
  'NUMBER_EQ',
  'NUMBER_NOT_EQ',
  'NUMBER_BETWEEN',
  'NUMBER_NOT_BETWEEN',
  'TEXT_CONTAINS',
  'TEXT_NOT_CONTAINS',
  'TEXT_STARTS_WITH',
  'TEXT_ENDS_WITH',
  'TEXT_EQ',
  'TEXT_IS_EMAIL',
  'TEXT_IS_URL',
  'DATE_EQ',
  'DATE_BEFORE',
  'DATE_AFTER',
  'BLANK',
  'NOT_BLANK',
  'CUSTOM_FORMULA',
]);
const FORMAT_FIELDS = new Set(['backgroundColor', 'backgroundColorStyle', 'textFormat']);
const TEXT_FORMAT_FIELDS = new Set([
  'bold',
  'italic',
  'strikethrough',
  'underline',
  'foregroundColor',
  'foregroundColorStyle',
]);

function invalid(i: number, why: string): Error {
  return new Error(`Invalid requests[${i}].addConditionalFormatRule: ${why}`);
}

/** The rule of an addConditionalFormatRule request, checked; `sheetIds` are the grids that exist. */
export function parseConditionalFormat(
  body: Record<string, unknown>,
  i: number,
  sheetExists: (id: number) => boolean,
): { rule: ConditionalFormatRecord; index: number } {
  const rule = (body.rule ?? null) as Record<string, unknown> | null;
  if (!rule || typeof rule !== 'object') throw invalid(i, 'rule is required.');
  const ranges = rule.ranges;
  if (!Array.isArray(ranges) || ranges.length === 0) throw invalid(i, 'rule.ranges must hold at least one range.');
  const grids = new Set<number>();
  const parsed = ranges.map((r, k) => {
    const range = (r ?? {}) as Record<string, unknown>;
    const sheetId = Number(range.sheetId ?? 0);
    if (!sheetExists(sheetId)) throw invalid(i, `No grid with id: ${sheetId}`);
    grids.add(sheetId);
    const out: GridRangeRecord = { sheetId };
    for (const key of ['startRowIndex', 'endRowIndex', 'startColumnIndex', 'endColumnIndex'] as const) {
      if (range[key] === undefined) continue;
      const n = range[key];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        throw invalid(i, `rule.ranges[${k}].${key} must be a non-negative integer.`);
      out[key] = n;
    }
    return out;
  });
  if (grids.size > 1) throw invalid(i, 'All the ranges of a conditional format rule must be on the same grid.');
  if (rule.gradientRule !== undefined) throw invalid(i, 'gradient rules are not modelled by the local runtime.');
  const boolean = (rule.booleanRule ?? null) as {
    condition?: { type?: unknown; values?: unknown };
    format?: unknown;
  } | null;
  if (!boolean) throw invalid(i, 'rule.booleanRule is required.');
  const type = String(boolean.condition?.type ?? '');
  if (!CONDITION_TYPES.has(type)) throw invalid(i, `Unknown condition type "${type}".`);
  const values = Array.isArray(boolean.condition?.values)
    ? (boolean.condition!.values as Array<{ userEnteredValue?: unknown }>).map((v) => String(v?.userEnteredValue ?? ''))
    : [];
  if (type === 'CUSTOM_FORMULA' && (values.length !== 1 || !values[0].startsWith('=')))
    throw invalid(i, 'CUSTOM_FORMULA takes exactly one value, a formula starting with "=".');
  const format = (boolean.format ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(format))
    if (!FORMAT_FIELDS.has(key))
      throw invalid(
        i,
        `Conditional formatting cannot set ${key}: only bold, italic, strikethrough, foreground color and background color.`,
      );
  const text = (format.textFormat ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(text))
    if (!TEXT_FORMAT_FIELDS.has(key)) throw invalid(i, `Conditional formatting cannot set textFormat.${key}.`);
  const index = body.index === undefined ? Number.POSITIVE_INFINITY : Number(body.index);
  if (index !== Number.POSITIVE_INFINITY && (!Number.isInteger(index) || index < 0))
    throw invalid(i, 'index must be a non-negative integer.');
  return {
    rule: {
      ranges: parsed,
      condition: { type, values },
      format: JSON.parse(JSON.stringify(format)) as Record<string, unknown>,
    },
    index,
  };
}

/**
 * The rules after rows `first`..`first + count - 1` (1-based) of a sheet are deleted: each of its
 * ranges shrinks by the deleted rows inside it and moves up by those above it, a range left with
 * no row goes, and a rule left with no range goes; rules on other sheets are untouched. What
 * Sheets does to a rule over deleted rows (a range reference follows the rows it covers, as a
 * formula's does: support.google.com/docs/answer/78413, "Use conditional formatting rules",
 * ranges "Apply to range" that update as rows change); unbounded ranges (no end row) keep no end.
 */
export function rulesAfterDeletedRows(
  rules: readonly ConditionalFormatRecord[],
  sheetId: number,
  first: number,
  count: number,
): ConditionalFormatRecord[] {
  const from = first - 1;
  const to = from + count;
  const moved = (index: number): number => index - Math.max(0, Math.min(index, to) - from);
  const out: ConditionalFormatRecord[] = [];
  for (const rule of rules) {
    const ranges: GridRangeRecord[] = [];
    for (const range of rule.ranges) {
      if (range.sheetId !== sheetId) {
        ranges.push(range);
        continue;
      }
      const start = moved(range.startRowIndex ?? 0);
      const end = range.endRowIndex === undefined ? undefined : moved(range.endRowIndex);
      if (end !== undefined && end <= start) continue;
      ranges.push({
        ...range,
        ...(range.startRowIndex === undefined ? {} : { startRowIndex: start }),
        ...(end === undefined ? {} : { endRowIndex: end }),
      });
    }
    if (ranges.length > 0) out.push({ ...rule, ranges });
  }
  return out;
}
