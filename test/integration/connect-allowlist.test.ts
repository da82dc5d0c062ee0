/**
 * The manifest's urlFetchWhitelist decides (developers.google.com/apps-script/manifest/allowlist-url):
 * the harness no longer allows the emulator's origin on the side; the runtime enforces the built
 * manifest's own list with the emulator standing in for the deployed API. Connect goes through
 * discovery and the token endpoint (spec 5.2) under the real list; a list narrowed to the API's
 * /api/v1/ path — what a whitelist derived from the full base URL would be — blocks them.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../dev/harness/index';

const DIST = path.resolve(__dirname, '../../dist');
let stack: Stack | undefined;
let narrowed: string | undefined;

afterEach(async () => {
  await stack?.close();
  stack = undefined;
  if (narrowed) await rm(narrowed, { recursive: true, force: true });
  narrowed = undefined;
});

/** dist/ with its urlFetchWhitelist entries narrowed to `path` under the same origin. */
async function distWithAllowlistPath(suffix: string): Promise<string> {
  narrowed = await mkdtemp(path.join(os.tmpdir(), 'ma-allowlist-'));
  await cp(DIST, narrowed, { recursive: true });
  const file = path.join(narrowed, 'appsscript.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as { urlFetchWhitelist: string[] };
  manifest.urlFetchWhitelist = manifest.urlFetchWhitelist.map((e) => `${new URL(e).origin}${suffix}`);
  await writeFile(file, JSON.stringify(manifest));
  return narrowed;
}

describe("Connect under the manifest's urlFetchWhitelist", () => {
  it('a list narrowed to /api/v1/ refuses the token endpoint (nothing reaches it), so Connect cannot finish; the built list (the API origin) lets it reach discovery and the token endpoint', async () => {
    stack = await startStack({ orders: 5, seed: 5, distDir: await distWithAllowlistPath('/api/v1/') });
    const refused = await stack.connect();
    expect(refused.outcome).toBe('server_error');
    expect(refused.html).toContain('token_request_failed');
    expect(stack.runtime.totals.requests.map((r) => new URL(r.url).pathname)).not.toContain('/api/auth/oauth2/token');
    await stack.close();

    stack = await startStack({ orders: 5, seed: 5 });
    expect((await stack.connect()).outcome).toBe('connected');
    const paths = stack.runtime.totals.requests.map((r) => new URL(r.url).pathname);
    expect(paths).toContain('/api/auth/oauth2/token');
    expect(paths.some((p) => p.startsWith('/.well-known/'))).toBe(true);
  });
});
