/**
 * npm run configure — the deployment's connection settings (the deployment config):
 *
 *   MA_CLIENT_SECRET=… npm run configure -- --api https://api.example.com --client-id ID
 *       checks the values and prints the exact script properties to set in the Apps Script editor
 *       (Project Settings → Script properties) and the redirect URI to register. The secret is read
 *       from the environment (never from the command line, which other users can see) and never printed.
 *
 *   MA_CLIENT_SECRET=… npm run configure -- --api http://127.0.0.1:8787 --client-id ID --state .state
 *       writes the same properties into a local runtime state directory (the demo's --state), with
 *       --redirect-uri for the loopback callback when one is registered with the emulator.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRuntime } from './gas-runtime/index';

interface Settings {
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string | null;
  stateDir: string | null;
}

const ROOT = path.resolve(__dirname, '..');

const USAGE = [
  'usage: MA_CLIENT_SECRET=… npm run configure -- --api URL --client-id ID [--redirect-uri URI] [--state DIR]',
  '',
  '  --api URL           the Merchant Analytics API base URL (https; http only for a loopback emulator)',
  '  --client-id ID      the client id Merchant Analytics issued for this add-on',
  '  --redirect-uri URI  only when it differs from https://script.google.com/macros/d/{SCRIPT_ID}/usercallback',
  "  --state DIR         write the settings into a local runtime state (the demo's --state) instead of printing them",
  '',
  'The client secret is read from MA_CLIENT_SECRET (never from the command line) and never printed.',
  'Without --state it prints the script properties to enter in the Apps Script editor.',
].join('\n');

function parseArgs(argv: string[]): Settings {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!;
    if (!name.startsWith('--')) throw new Error(`unexpected argument "${name}"\n${USAGE}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
    flags.set(name.slice(2), value);
    i++;
  }
  const known = ['api', 'client-id', 'redirect-uri', 'state'];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown option --${name}\n${USAGE}`);
  if (flags.has('client-secret')) throw new Error('pass the secret in MA_CLIENT_SECRET, not on the command line');
  return {
    apiBaseUrl: (flags.get('api') ?? process.env.MA_API_BASE_URL ?? '').trim().replace(/\/+$/, ''),
    clientId: (flags.get('client-id') ?? process.env.MA_CLIENT_ID ?? '').trim(),
    clientSecret: (process.env.MA_CLIENT_SECRET ?? '').trim(),
    redirectUri: flags.get('redirect-uri')?.trim() || null,
    stateDir: flags.get('state') ?? null,
  };
}

function problemsOf(s: Settings): string[] {
  const problems: string[] = [];
  let url: URL | null = null;
  try {
    url = new URL(s.apiBaseUrl);
  } catch {
    problems.push('--api must be the API base URL, e.g. https://api.merchant-analytics.example');
  }
  const loopback = url !== null && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
  if (url && url.protocol !== 'https:' && !(loopback && url.protocol === 'http:'))
    problems.push('--api must use https (http only for a loopback emulator)');
  if (url && (url.search || url.hash)) problems.push('--api must not carry a query or fragment');
  if (!s.clientId) problems.push('--client-id is required');
  if (!s.clientSecret)
    problems.push('set MA_CLIENT_SECRET in the environment (it is never printed or passed on the command line)');
  if (s.redirectUri && !/^https?:\/\//.test(s.redirectUri)) problems.push('--redirect-uri must be an http(s) URL');
  if (!s.stateDir && loopback) problems.push('a loopback API only makes sense for the local runtime: add --state DIR');
  return problems;
}

function scriptId(): string | null {
  const file = path.join(ROOT, '.clasp.json');
  if (!existsSync(file)) return null;
  const id = (JSON.parse(readFileSync(file, 'utf8')) as { scriptId?: string }).scriptId;
  return id && !id.startsWith('REPLACE_') ? id : null;
}

async function writeLocalState(s: Settings, stateDir: string): Promise<void> {
  const runtime = await createRuntime({
    distDir: path.join(ROOT, 'dist'),
    stateDir,
    urlFetchAllow: [`${s.apiBaseUrl}/`],
  });
  try {
    const script = runtime.properties.script;
    script.set('MA_API_BASE_URL', s.apiBaseUrl);
    script.set('MA_CLIENT_ID', s.clientId);
    script.set('MA_CLIENT_SECRET', s.clientSecret);
    if (s.redirectUri) script.set('MA_REDIRECT_URI', s.redirectUri);
    else script.delete('MA_REDIRECT_URI');
    await runtime.saveState(stateDir);
  } finally {
    await runtime.close();
  }
  console.log(
    `Saved MA_API_BASE_URL, MA_CLIENT_ID, MA_CLIENT_SECRET${s.redirectUri ? ', MA_REDIRECT_URI' : ''} in the local runtime state ${stateDir}.`,
  );
}

function printDeploymentSteps(s: Settings): void {
  const id = scriptId();
  const redirect = s.redirectUri ?? `https://script.google.com/macros/d/${id ?? '{SCRIPT_ID}'}/usercallback`;
  console.log(
    [
      'Settings checked. In the Apps Script editor of the add-on project open Project Settings → Script properties and add:',
      '',
      `  MA_API_BASE_URL   ${s.apiBaseUrl}`,
      `  MA_CLIENT_ID      ${s.clientId}`,
      '  MA_CLIENT_SECRET  (the client secret from MA_CLIENT_SECRET; not shown here)',
      ...(s.redirectUri ? [`  MA_REDIRECT_URI   ${s.redirectUri}`] : []),
      '',
      `Register this redirect URI for the client with Merchant Analytics: ${redirect}`,
      ...(id || s.redirectUri
        ? []
        : [
            '({SCRIPT_ID} is the Apps Script project id: Project Settings → IDs, the scriptId you put in .clasp.json.)',
          ]),
      'Script properties are shared by every user of the deployment and are never visible in the spreadsheet.',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const settings = parseArgs(argv);
  const problems = problemsOf(settings);
  if (problems.length > 0) throw new Error(`Nothing was saved:\n  - ${problems.join('\n  - ')}`);
  if (settings.stateDir) await writeLocalState(settings, path.resolve(settings.stateDir));
  else printDeploymentSteps(settings);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
