/**
 * `npm run deploy` refuses up front, saying what to do, when clasp push could not succeed — not
 * after minutes of lint and tests, and not with clasp's bare "No credentials found.". Also the
 * configure CLI's help, which a newcomer reaches for first.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployProblems, type DeployInputs } from '../../build/deploy-readiness';

const root = path.resolve(__dirname, '../..');
const ready: DeployInputs = {
  claspJson: JSON.stringify({ scriptId: '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmnop', rootDir: 'dist' }),
  deployConfigJson: JSON.stringify({ apiBaseUrl: 'https://api.merchant-analytics.com' }),
  claspLogin: 'logged-in',
};

describe('deploy readiness: every reason clasp push would fail, each with the fix', () => {
  it('a configured, logged-in project has no problem', () => {
    expect(deployProblems(ready)).toEqual([]);
  });

  it('the placeholders a fresh clone carries are refused, naming the file and the value to put there', () => {
    // The committed values, written out: a configured checkout must still pass this test (deploy runs it).
    const problems = deployProblems({
      claspJson: JSON.stringify({ scriptId: 'REPLACE_WITH_YOUR_SCRIPT_ID', rootDir: 'dist' }),
      deployConfigJson: JSON.stringify({ apiBaseUrl: 'https://api.merchant-analytics.example' }),
      claspLogin: 'logged-in',
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/\.clasp\.json.*script id.*Script ID/);
    expect(problems[1]).toMatch(/placeholder https:\/\/api\.merchant-analytics\.example.*deploy\.config\.json/);
  });

  it('a missing or unreadable .clasp.json, or one that pushes something other than dist/, is refused', () => {
    expect(deployProblems({ ...ready, claspJson: null })[0]).toMatch(/\.clasp\.json is missing/);
    expect(deployProblems({ ...ready, claspJson: '{scriptId:' })[0]).toMatch(/not a JSON object/);
    expect(deployProblems({ ...ready, claspJson: JSON.stringify({ scriptId: 'abc123', rootDir: 'src' }) })[0]).toMatch(
      /rootDir.*dist/,
    );
  });

  it('MA_API_BASE_URL overrides deploy.config.json, as the build does; http and example hosts are refused', () => {
    expect(
      deployProblems({ ...ready, deployConfigJson: null, apiBaseUrlOverride: 'https://api.merchant-analytics.com' }),
    ).toEqual([]);
    expect(deployProblems({ ...ready, apiBaseUrlOverride: 'http://api.merchant-analytics.com' })[0]).toMatch(/https/);
    expect(deployProblems({ ...ready, apiBaseUrlOverride: 'https://api.example.com' })[0]).toMatch(/placeholder/);
    expect(deployProblems({ ...ready, deployConfigJson: '{}' })[0]).toMatch(/no "apiBaseUrl"/);
  });

  it('without a clasp login it says to run npx clasp login', () => {
    expect(deployProblems({ ...ready, claspLogin: 'logged-out' })).toEqual([expect.stringMatching(/npx clasp login/)]);
  });
});

describe('npm run configure -- --help', () => {
  it('prints the usage and exits 0 instead of "--help needs a value"', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'dev/configure.ts'), '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: MA_CLIENT_SECRET=… npm run configure -- --api URL --client-id ID/);
    expect(run.stdout).toMatch(/--state DIR/);
  });

  it('a secret given in the environment is never printed', () => {
    const secret = 'mas_qa-secret-that-must-not-appear';
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'dev/configure.ts'),
        '--api',
        'https://api.merchant-analytics.com',
        '--client-id',
        'ID',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, MA_CLIENT_SECRET: secret },
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/MA_CLIENT_ID\s+ID/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
  });
});
