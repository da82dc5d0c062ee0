/**
 * What a custom function needs to call the API: the stored access token (never refreshed here),
 * the 30 s budget, the document cache, and the spreadsheet's time zone for Date arguments.
 */
import { createApiClient } from '../api/client';
import type { ApiClient } from '../api/client';
import { customFunctionTokenSource, storeTag } from '../auth';
import { getDeploymentConfig } from '../config';
import { CUSTOM_FUNCTION_LIMIT_MS, ExecutionBudget } from '../platform/budget';
import type { DateFormatter } from './args';

export interface CustomFunctionContext {
  client: ApiClient;
  budget: ExecutionBudget;
}

export function customFunctionContext(): CustomFunctionContext {
  const budget = new ExecutionBudget(CUSTOM_FUNCTION_LIMIT_MS);
  const client = createApiClient({
    baseUrl: getDeploymentConfig().apiBaseUrl,
    tokens: customFunctionTokenSource(),
    budget,
    cache: CacheService.getDocumentCache(),
    transport: { cacheScope: storeTag() ?? '' },
  });
  return { client, budget };
}

/** Dates as the spreadsheet shows them: its time zone, not the script's. */
export function spreadsheetDateFormatter(): DateFormatter {
  const timeZone = SpreadsheetApp.getActive().getSpreadsheetTimeZone();
  return (date) => Utilities.formatDate(date, timeZone, 'yyyy-MM-dd');
}
