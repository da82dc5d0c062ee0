/**
 * What a custom function needs to call the API: the stored access token (never refreshed here),
 * the 30 s budget, the document cache, and the spreadsheet's time zone for dates.
 */
import { createApiClient } from '../api/client';
import type { ApiClient } from '../api/client';
import { customFunctionTokenSource, storeTag } from '../auth';
import { getDeploymentConfig } from '../config';
import { CUSTOM_FUNCTION_LIMIT_MS, ExecutionBudget } from '../platform/budget';

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

/** The spreadsheet's time zone (not the script's): Date arguments are read, and dates returned, in it. */
export function spreadsheetTimeZone(): string {
  return SpreadsheetApp.getActive().getSpreadsheetTimeZone();
}
