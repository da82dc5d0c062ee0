/**
 * `npm run deploy:push` (deploy minus lint and the test suite) run for real in a throwaway copy of
 * the project, against a stub `clasp` first on PATH that records its arguments and answers as clasp
 * 3.4 does. Deploy must push with --force, refuse (pushing nothing) what cannot deploy, and fail
 * when clasp exits 0 without pushing. No network: the stub is the only clasp that runs.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const realScriptId = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmnop';
const realApi = 'https://api.merchant-analytics.com';
/** What clasp 3.4's push prints after pushing (build/src/commands/push.js). */
const pushed = 'Pushed 3 files at 5:03:14 AM.\n└─ dist/appsscript.json\n└─ dist/Code.js\n└─ dist/Sidebar.html';

interface StubClasp {
  /** stdout and exit status of `clasp show-authorized-user --json`. */
  login: { stdout: string; status: number };
  /** stdout and exit status of `clasp push …`. */
  push: { stdout: string; status: number };
}

interface Project {
  scriptId?: string;
  apiBaseUrl?: string;
  clasp: StubClasp;
  /** Files to put in the throwaway home directory. */
  home?: Record<string, string>;
}

interface DeployRun {
  status: number | null;
  output: string;
  /** One line per clasp invocation: its arguments. */
  claspCalls: string[];
  dir: string;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function writeStubClasp(binDir: string, log: string, stub: StubClasp): void {
  const answer = (reply: { stdout: string; status: number }) =>
    `printf '%s\\n' ${shellQuoted(reply.stdout)}; exit ${reply.status}`;
  const script = [
    '#!/bin/sh',
    `printf '%s\\n' "$*" >> ${shellQuoted(log)}`,
    'case "$1" in',
    `  show-authorized-user) ${answer(stub.login)};;`,
    `  push) ${answer(stub.push)};;`,
    `  *) echo "stub clasp: unexpected command $*" >&2; exit 2;;`,
    'esac',
    '',
  ].join('\n');
  writeFileSync(path.join(binDir, 'clasp'), script);
  chmodSync(path.join(binDir, 'clasp'), 0o755);
}

/**
 * The project's own node_modules, entry by entry, except node_modules/.bin/clasp: `npm run` puts
 * node_modules/.bin first on PATH, and the real clasp there would shadow the stub.
 */
function linkNodeModulesWithoutClasp(dir: string): void {
  const modules = path.join(root, 'node_modules');
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  for (const entry of readdirSync(modules)) {
    if (entry !== '.bin') symlinkSync(path.join(modules, entry), path.join(dir, 'node_modules', entry));
  }
  for (const bin of readdirSync(path.join(modules, '.bin'))) {
    if (bin !== 'clasp') symlinkSync(path.join(modules, '.bin', bin), path.join(dir, 'node_modules/.bin', bin));
  }
}

function runDeployPush(project: Project): DeployRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ma-deploy-'));
  made.push(dir);
  for (const item of [
    'package.json',
    'appsscript.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'tsconfig.sidebar.json',
    'build',
    'src',
  ]) {
    cpSync(path.join(root, item), path.join(dir, item), { recursive: true });
  }
  linkNodeModulesWithoutClasp(dir);
  writeFileSync(
    path.join(dir, '.clasp.json'),
    JSON.stringify({ scriptId: project.scriptId ?? realScriptId, rootDir: 'dist' }),
  );
  writeFileSync(path.join(dir, 'deploy.config.json'), JSON.stringify({ apiBaseUrl: project.apiBaseUrl ?? realApi }));
  const home = path.join(dir, '.home');
  const stubBin = path.join(dir, '.stub-bin');
  mkdirSync(home);
  mkdirSync(stubBin);
  for (const [name, text] of Object.entries(project.home ?? {})) writeFileSync(path.join(home, name), text);
  const log = path.join(dir, '.clasp-calls');
  writeStubClasp(stubBin, log, project.clasp);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    PATH: `${stubBin}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_update_notifier: 'false',
  };
  delete env.MA_API_BASE_URL;
  delete env.clasp_config_auth;
  const run = spawnSync('npm', ['run', '--silent', 'deploy:push'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const claspCalls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  return { status: run.status, output: `${run.stdout}${run.stderr}`, claspCalls, dir };
}

const loggedIn = { stdout: JSON.stringify({ loggedIn: true, email: 'dev@example.com' }), status: 0 };
const loggedOut = { stdout: JSON.stringify({ loggedIn: false }), status: 0 };
const pushes = { stdout: pushed, status: 0 };
/** The file `clasp login` writes (clasp 3's FileCredentialStore), with made-up values: the home of a logged-in developer. */
const loginHome = {
  '.clasprc.json': JSON.stringify({
    tokens: { default: { type: 'authorized_user', client_id: 'stub', client_secret: 'stub', refresh_token: 'stub' } },
  }),
};

function loggedInProject(push: StubClasp['push'], config: Pick<Project, 'scriptId' | 'apiBaseUrl'> = {}): Project {
  return { ...config, clasp: { login: loggedIn, push }, home: loginHome };
}

describe('npm run deploy:push against a stub clasp', () => {
  it('builds, then pushes with clasp push --force, and succeeds when clasp says it pushed', () => {
    const run = runDeployPush(loggedInProject(pushes));
    expect(run.output).not.toMatch(/Not deploying|Deploy failed/);
    expect(run.status).toBe(0);
    expect(run.claspCalls).toEqual(['show-authorized-user --json', 'push --force']);
    // What was pushed is the build for the configured API, not a stale or placeholder dist/.
    const manifest = JSON.parse(readFileSync(path.join(run.dir, 'dist/appsscript.json'), 'utf8')) as {
      urlFetchWhitelist: string[];
    };
    expect(manifest.urlFetchWhitelist).toEqual([`${realApi}/`]);
  });

  it('fails when clasp prints "Skipping push." and exits 0 (it would not overwrite the manifest)', () => {
    const run = runDeployPush(loggedInProject({ stdout: 'Skipping push.', status: 0 }));
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/Deploy failed: clasp printed "Skipping push\." and pushed nothing/);
  });

  it('fails when clasp push exits 0 without saying it pushed, and when it exits non-zero', () => {
    const silent = runDeployPush(loggedInProject({ stdout: '', status: 0 }));
    expect(silent.status).not.toBe(0);
    expect(silent.output).toMatch(/Deploy failed: clasp push exited 0 without saying it pushed/);
    const failing = runDeployPush(loggedInProject({ stdout: 'Request contains an invalid argument.', status: 1 }));
    expect(failing.status).not.toBe(0);
    expect(failing.output).toMatch(/Deploy failed: clasp push failed \(exit 1\)/);
  });

  it('refuses when clasp is not logged in, even with the ~/.clasprc.json that clasp logout leaves, and pushes nothing', () => {
    const run = runDeployPush({
      clasp: { login: loggedOut, push: pushes },
      home: { '.clasprc.json': JSON.stringify({ tokens: {} }) },
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(
      /Not deploying \(nothing was pushed\):\n {2}- clasp is not logged in: run `npx clasp login` once/,
    );
    expect(run.claspCalls).toEqual(['show-authorized-user --json']);
    expect(existsSync(path.join(run.dir, 'dist'))).toBe(false);
  });

  it('refuses when clasp cannot say whether it is logged in (show-authorized-user fails)', () => {
    const run = runDeployPush({ clasp: { login: { stdout: '', status: 1 }, push: pushes }, home: loginHome });
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/clasp could not say whether it is logged in/);
    expect(run.claspCalls).not.toContain('push --force');
  });

  it('refuses the placeholder script id of .clasp.json, and pushes nothing', () => {
    const run = runDeployPush(loggedInProject(pushes, { scriptId: 'REPLACE_WITH_YOUR_SCRIPT_ID' }));
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(
      /Not deploying \(nothing was pushed\):\n {2}- \.clasp\.json has no script id yet: put your Apps Script project id/,
    );
    expect(run.claspCalls).not.toContain('push --force');
  });

  it('refuses the placeholder API address of deploy.config.json, and pushes nothing', () => {
    const run = runDeployPush(loggedInProject(pushes, { apiBaseUrl: 'https://api.merchant-analytics.example' }));
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(
      /Not deploying \(nothing was pushed\):\n {2}- the API base URL is still the placeholder https:\/\/api\.merchant-analytics\.example/,
    );
    expect(run.claspCalls).not.toContain('push --force');
  });
});
