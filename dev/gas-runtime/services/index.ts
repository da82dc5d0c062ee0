import type { RuntimeClock } from '../clock.js';
import type { Manifest } from '../manifest.js';
import type { SpreadsheetModule, WorkbookLike } from '../spreadsheet-adapter.js';
import type { SharedStores } from '../stores.js';
import type { ExecutionServiceContext } from '../types.js';
import { BigQueryAdvancedService } from './bigquery.js';
import { CacheService, userCacheStore } from './cache.js';
import { HtmlService } from './html-service.js';
import { LockService } from './lock.js';
import { MailApp } from './mail.js';
import { PropertiesService, userPropertyStore } from './properties.js';
import { ScriptApp, type ScriptAppSettings } from './script-app.js';
import { Session, UtilitiesHost } from './session.js';
import { UrlFetchApp } from './url-fetch.js';

export interface ServiceWiring {
  distDir: string;
  manifest: Manifest;
  stores: SharedStores;
  clock: RuntimeClock;
  /** The user this execution runs as. */
  userEmail: string;
  /** The runtime's default user (their stores are `stores.*.user`). */
  defaultUserEmail: string;
  /** The spreadsheet's owner, whose user store a custom function reads: the default user, or whoever made the copy. */
  documentOwnerEmail: string;
  documentId: string;
  scriptId: string;
  urlFetchAllow: string[];
  /** The manifest's urlFetchWhitelist with the API base put locally (allowlist.ts); undefined when it has none. */
  urlFetchWhitelist: string[] | undefined;
  /** `open`: the spreadsheets this execution's user may open by id (DocumentAccess). */
  spreadsheet:
    | { module: SpreadsheetModule; workbook: WorkbookLike; open?: (id: string) => WorkbookLike | 'missing' | undefined }
    | undefined;
  serviceUrl: () => string | null;
  /** The executing user's granted scopes and the authorization prompt (consent.ts). */
  consent: ScriptAppSettings['consent'];
  sleep: (ms: number) => Promise<void>;
}

/** The host service objects one execution sees as globals (global name → object). */
export function createServiceRoots(wiring: ServiceWiring, ctx: ExecutionServiceContext): Record<string, object> {
  const { stores, manifest } = wiring;
  // Custom functions: "getUserProperties ... returns the owner's store" (apps-script-facts.md).
  const propertiesUser = ctx.authMode === 'CUSTOM_FUNCTION' ? wiring.documentOwnerEmail : wiring.userEmail;
  const roots: Record<string, object> = {
    PropertiesService: new PropertiesService(
      stores.properties,
      ctx,
      userPropertyStore(stores.properties, propertiesUser, wiring.defaultUserEmail),
    ),
    CacheService: new CacheService(
      stores.caches,
      ctx,
      userCacheStore(stores.caches, wiring.userEmail, wiring.defaultUserEmail, wiring.clock),
    ),
    LockService: new LockService(stores.locks, ctx, wiring.documentId, wiring.userEmail),
    UrlFetchApp: new UrlFetchApp(ctx, { whitelist: wiring.urlFetchWhitelist, allow: wiring.urlFetchAllow }),
    ScriptApp: new ScriptApp(
      {
        scriptId: wiring.scriptId,
        oauthScopes: manifest.oauthScopes,
        clock: wiring.clock,
        codec: stores.stateTokens,
        serviceUrl: wiring.serviceUrl,
        consent: wiring.consent,
      },
      { records: stores.triggers, documentId: wiring.documentId, userEmail: wiring.userEmail, ctx },
    ),
    HtmlService: new HtmlService(wiring.distDir),
    Session: new Session(
      ctx,
      wiring.userEmail,
      manifest.timeZone,
      manifest.oauthScopes.length > 0 ? manifest.oauthScopes : null,
    ),
    Utilities: new UtilitiesHost(wiring.sleep),
    // An empty scope list means Google detects the scopes itself: no permission is missing then.
    MailApp: new MailApp(
      stores.mail,
      ctx,
      wiring.userEmail,
      manifest.oauthScopes.length > 0 ? manifest.oauthScopes : null,
      wiring.clock,
    ),
  };
  for (const service of manifest.advancedServices) {
    if (service.serviceId !== 'bigquery') continue;
    roots[service.userSymbol] = new BigQueryAdvancedService({
      warehouse: stores.bigquery,
      ctx,
      clock: wiring.clock,
      userEmail: wiring.userEmail,
      oauthScopes: manifest.oauthScopes.length > 0 ? manifest.oauthScopes : null,
    });
  }
  if (wiring.spreadsheet) {
    const { module, workbook, open } = wiring.spreadsheet;
    module.linkBigQuery?.(ctx, {
      warehouse: stores.bigquery,
      now: () => wiring.clock.now(),
      oauthScopes: manifest.oauthScopes.length > 0 ? manifest.oauthScopes : null,
    });
    roots.SpreadsheetApp = module.createSpreadsheetApp(workbook, ctx, stores.ui, open);
    for (const service of manifest.advancedServices) {
      if (service.serviceId === 'sheets') roots[service.userSymbol] = module.createSheetsService(workbook, ctx);
    }
  }
  return roots;
}
