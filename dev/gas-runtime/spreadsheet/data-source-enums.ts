/**
 * SpreadsheetApp's enums for Connected Sheets, with the names Google's reference pages give
 * (DataExecutionState, DataExecutionErrorCode, PivotTableSummarizeFunction, SheetType); values are
 * their names, as the runtime's other enums.
 */
const named = <T extends string>(names: readonly T[]): Record<T, T> =>
  Object.fromEntries(names.map((n) => [n, n])) as Record<T, T>;

export const DATA_SOURCE_ENUMS = {
  DataExecutionState: named([
    'DATA_EXECUTION_STATE_UNSUPPORTED',
    'RUNNING',
    'SUCCESS',
    'ERROR',
    'NOT_STARTED',
  ] as const),
  DataExecutionErrorCode: named([
    'DATA_EXECUTION_ERROR_CODE_UNSUPPORTED',
    'NONE',
    'TIME_OUT',
    'TOO_MANY_ROWS',
    'TOO_MANY_COLUMNS',
    'TOO_MANY_CELLS',
    'ENGINE',
    'PARAMETER_INVALID',
    'UNSUPPORTED_DATA_TYPE',
    'DUPLICATE_COLUMN_NAMES',
    'INTERRUPTED',
    'OTHER',
    'TOO_MANY_CHARS_PER_CELL',
    'DATA_NOT_FOUND',
    'PERMISSION_DENIED',
  ] as const),
  PivotTableSummarizeFunction: named([
    'CUSTOM',
    'SUM',
    'COUNTA',
    'COUNT',
    'COUNTUNIQUE',
    'AVERAGE',
    'MAX',
    'MIN',
    'MEDIAN',
    'PRODUCT',
    'STDEV',
    'STDEVP',
    'VAR',
    'VARP',
  ] as const),
  SheetType: named(['GRID', 'OBJECT', 'DATASOURCE'] as const),
  DateTimeGroupingRuleType: named([
    'UNSUPPORTED',
    'ANY_MINUTE',
    'HOUR',
    'HOUR_MINUTE',
    'HOUR_MINUTE_AMPM',
    'DAY_OF_WEEK',
    'DAY_OF_YEAR',
    'DAY_OF_MONTH',
    'DAY_MONTH',
    'MONTH',
    'QUARTER',
    'YEAR',
    'YEAR_MONTH',
    'YEAR_QUARTER',
    'YEAR_MONTH_DAY',
  ] as const),
};
