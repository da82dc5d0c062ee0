import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The parts of appsscript.json the runtime honours. */
export interface Manifest {
  timeZone: string;
  oauthScopes: string[];
  /** undefined when the manifest has none (then every URL may be fetched). */
  urlFetchWhitelist: string[] | undefined;
  libraries: Array<{ userSymbol: string; libraryId: string; version: string }>;
  advancedServices: Array<{ userSymbol: string; serviceId: string; version: string }>;
}

function strings(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new Error(`appsscript.json: ${field} must be an array of strings`);
  return value as string[];
}

export async function readManifest(distDir: string): Promise<Manifest> {
  const file = path.join(distDir, 'appsscript.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the manifest ${file}: ${(error as Error).message}`);
  }
  const json = raw as Record<string, unknown>;
  if (typeof json.timeZone !== 'string') throw new Error('appsscript.json: timeZone is required (an IANA zone)');
  const dependencies = (json.dependencies ?? {}) as Record<string, unknown>;
  const libraries = (Array.isArray(dependencies.libraries) ? dependencies.libraries : []) as Array<
    Record<string, unknown>
  >;
  const advanced = (
    Array.isArray(dependencies.enabledAdvancedServices) ? dependencies.enabledAdvancedServices : []
  ) as Array<Record<string, unknown>>;
  return {
    timeZone: json.timeZone,
    oauthScopes: json.oauthScopes === undefined ? [] : strings(json.oauthScopes, 'oauthScopes'),
    urlFetchWhitelist:
      json.urlFetchWhitelist === undefined ? undefined : strings(json.urlFetchWhitelist, 'urlFetchWhitelist'),
    libraries: libraries.map((l) => ({
      userSymbol: String(l.userSymbol),
      libraryId: String(l.libraryId ?? ''),
      version: String(l.version ?? ''),
    })),
    advancedServices: advanced.map((s) => ({
      userSymbol: String(s.userSymbol),
      serviceId: String(s.serviceId ?? ''),
      version: String(s.version ?? ''),
    })),
  };
}
