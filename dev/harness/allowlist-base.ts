/**
 * The deployed API origin the build wrote into dist/appsscript.json's urlFetchWhitelist (from
 * MA_API_BASE_URL or deploy.config.json, as build/build.ts reads them). The harness has the runtime
 * put the emulator's origin in its place, so the manifest's own list decides what UrlFetchApp reaches.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { normaliseBaseUrl } from '../../build/manifest';

export function deployedApiOrigin(root: string): string {
  const config = JSON.parse(readFileSync(path.join(root, 'deploy.config.json'), 'utf8')) as { apiBaseUrl: string };
  return new URL(normaliseBaseUrl(process.env.MA_API_BASE_URL ?? config.apiBaseUrl)).origin;
}
