/**
 * What a custom function needs to call the API: the stored access token (never refreshed here),
 * the 30 s budget, the document cache (Cache-Control answers and shared formula answers), and
 * the spreadsheet's time zone for dates.
 */
import { currentSpreadsheet, MissingContextError } from '../platform/context';
import { createApiClient } from '../api/client';
import type { ApiClient } from '../api/client';
import { utilitiesDigest } from '../api/response-cache';
import { customFunctionTokenSource, storeTag } from '../auth';
import { getDeploymentConfig } from '../platform/config';
import { CUSTOM_FUNCTION_LIMIT_MS, ExecutionBudget } from '../platform/budget';
import { AnswerCache } from './answer-cache';
import { formulaGeneration } from './generation';
import { recordFormulaEnvironment } from '../platform/environment';
import type { TokenSource } from '../api/transport-contract';
import { once } from './store-zone';
import { readDocumentStateWhole } from '../platform/properties';

export interface CustomFunctionContext {
  client: ApiClient;
  budget: ExecutionBudget;
  answers: AnswerCache;
}

/** Time kept after waiting for another formula's answer, to read it and build the cells. */
const AFTER_WAIT_RESERVE_MS = 3_000;

export function customFunctionContext(): CustomFunctionContext {
  const budget = new ExecutionBudget(CUSTOM_FUNCTION_LIMIT_MS);
  readDocumentStateWhole();
  const tokens = tokensReadOnce(customFunctionTokenSource());
  const cache = CacheService.getDocumentCache();
  if (!cache) throw new MissingContextError('the document cache', 'a formula without its document');
  const store = storeTag() ?? '';
  const generation = formulaGeneration();
  // Most cells find their answer in the document cache and never reach the API: only a cell that
  // does reads the deployment's script properties (a billed call) and notes the formula environment
  // (the same observation from every cell).
  const client = once(() => {
    recordFormulaEnvironment(cache);
    return createApiClient({
      baseUrl: getDeploymentConfig().apiBaseUrl,
      tokens,
      budget,
      cache,
      // The hourly reserve exists for formulas and the sidebar: formulas may spend it (spec 8.1).
      transport: { cacheScope: store, cacheGeneration: generation, pageReserve: 0 },
    });
  });
  // Answers belong to one connection (a digest of the token, never the token) and one generation.
  const connection = utilitiesDigest(`connection:${tokens.accessToken()}`).slice(0, 12);
  const answers = new AnswerCache({
    store: cache,
    lock: () => LockService.getUserLock(),
    scope: `${store}~${connection}~g${generation}`,
    waitBudgetMs: () => budget.remainingMs() - AFTER_WAIT_RESERVE_MS,
    digest: utilitiesDigest,
  });
  return {
    get client() {
      return client();
    },
    budget,
    answers,
  };
}

/**
 * The stored token, read once per cell: it is used only with 90 s left (CUSTOM_FUNCTION_TOKEN_MARGIN_MS),
 * longer than a cell may run, and reading it again inside the answer lock (three property reads)
 * made every cell queued behind the fetchers wait that much longer.
 */
function tokensReadOnce(source: TokenSource): TokenSource {
  const token = once(() => source.accessToken());
  return { accessToken: token, refreshAfterInvalidToken: () => source.refreshAfterInvalidToken() };
}

/** The spreadsheet's time zone (not the script's): Date arguments are read, and dates returned, in it. */
export function spreadsheetTimeZone(): string {
  return currentSpreadsheet('reading the time zone').getSpreadsheetTimeZone();
}
