/**
 * npm run build: src/server/main.ts → dist/Code.js (one IIFE plus a top-level function declaration
 * per global main.ts lists, carrying the JSDoc of its entry file), src/sidebar → dist/Sidebar.html (one self-contained file),
 * appsscript.json → dist/appsscript.json (urlFetchWhitelist from the configured API base URL).
 */
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readGlobalsOf, renderGlobalDeclarations } from './globals';
import { buildManifest, type Manifest } from './manifest';

export const BUNDLE_NAMESPACE = 'MerchantAnalyticsAddOn';
const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

async function buildServer(): Promise<number> {
  const mainPath = path.join(root, 'src/server/main.ts');
  const { globals, problems } = readGlobalsOf(root, 'src/server/main.ts');
  if (problems.length)
    throw new Error(`main.ts cannot be turned into Apps Script globals:\n  ${problems.join('\n  ')}`);
  const result = await build({
    entryPoints: [mainPath],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: BUNDLE_NAMESPACE,
    platform: 'neutral',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    tsconfig: path.join(root, 'tsconfig.json'),
    inject: [path.join(__dirname, 'builtins.ts')],
  });
  const bundle = result.outputFiles[0]!.text;
  const header = '// Built by build/build.ts from src/server. Do not edit: edit the TypeScript sources.\n';
  await writeFile(
    path.join(dist, 'Code.js'),
    `${header}${renderGlobalDeclarations(globals, BUNDLE_NAMESPACE)}\n${bundle}`,
  );
  return globals.length;
}

async function buildSidebar(): Promise<void> {
  const dir = path.join(root, 'src/sidebar');
  const template = await readFile(path.join(dir, 'Sidebar.html'), 'utf8');
  const script = await build({
    entryPoints: [path.join(dir, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    tsconfig: path.join(root, 'tsconfig.sidebar.json'),
  });
  const style = await readFile(path.join(dir, 'sidebar.css'), 'utf8').catch(() => '');
  // A literal "</script" inside the inlined bundle would end the script element early.
  const js = script.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
  const html = template
    .replace('<!-- inline:style -->', () => `<style>\n${style}</style>`)
    .replace('<!-- inline:script -->', () => `<script>\n${js}</script>`);
  if (html.includes('<!-- inline:')) throw new Error('Sidebar.html has an inline marker the build does not know');
  await writeFile(path.join(dist, 'Sidebar.html'), html);
}

async function buildManifestFile(): Promise<string> {
  const source = JSON.parse(await readFile(path.join(root, 'appsscript.json'), 'utf8')) as Manifest;
  const config = JSON.parse(await readFile(path.join(root, 'deploy.config.json'), 'utf8')) as { apiBaseUrl: string };
  const apiBaseUrl = process.env.MA_API_BASE_URL ?? config.apiBaseUrl;
  const manifest = buildManifest(source, apiBaseUrl);
  await writeFile(path.join(dist, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return apiBaseUrl;
}

async function main(): Promise<void> {
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  const [globalCount, , apiBaseUrl] = await Promise.all([buildServer(), buildSidebar(), buildManifestFile()]);
  console.log(
    `built dist/Code.js (${globalCount} globals), dist/Sidebar.html, dist/appsscript.json (API ${apiBaseUrl})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
