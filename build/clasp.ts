/**
 * What deploy asks the clasp CLI (3.x), judged by what clasp prints and not only by its exit code:
 * is a Google account logged in, and did `clasp push` really push. Whichever `clasp` is first on
 * PATH answers; under `npm run` that is the project's own (npm puts node_modules/.bin first).
 */
import { spawnSync } from 'node:child_process';

export type ClaspLogin = 'logged-in' | 'logged-out' | 'unknown';

/**
 * `clasp show-authorized-user --json` prints {"loggedIn": boolean, …}: true when clasp loaded saved
 * credentials (~/.clasprc.json, or the file clasp_config_auth / --auth names). Asking clasp, rather
 * than looking for the file, also catches the file `clasp logout` leaves behind with no tokens.
 */
export function readClaspLogin(status: number | null, stdout: string): ClaspLogin {
  if (status !== 0) return 'unknown';
  try {
    const answer: unknown = JSON.parse(stdout);
    const loggedIn =
      answer !== null && typeof answer === 'object' ? (answer as { loggedIn?: unknown }).loggedIn : undefined;
    if (loggedIn === true) return 'logged-in';
    if (loggedIn === false) return 'logged-out';
    return 'unknown';
  } catch {
    return 'unknown';
  }
}

export function askClaspLogin(cwd: string): ClaspLogin {
  // stderr is not shown: a clasp that cannot parse its credentials file quotes the file's text.
  const run = spawnSync('clasp', ['show-authorized-user', '--json'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return readClaspLogin(run.status, run.stdout ?? '');
}

/**
 * clasp 3 (build/src/commands/push.js) answers a push without --force whose manifest changed with a
 * prompt that defaults to No; with no terminal it prints "Skipping push." and exits 0. A push that
 * happened ends with "Pushed N files at TIME." (or "Script is already up to date."); anything else
 * is not a push, whatever the exit code.
 */
export function pushProblem(status: number | null, output: string): string | null {
  if (status !== 0)
    return `clasp push failed (${status === null ? 'it did not run to the end' : `exit ${status}`}): see its output above.`;
  if (/^Skipping push\./m.test(output)) {
    return 'clasp printed "Skipping push." and pushed nothing (it would not overwrite the manifest): nothing was deployed.';
  }
  if (!/^(Pushed .+ at .+\.|Script is already up to date\.)$/m.test(output)) {
    return 'clasp push exited 0 without saying it pushed ("Pushed … files at …"): treating it as not deployed.';
  }
  return null;
}

/** Runs `clasp push --force` in cwd, echoing its output, and returns what it printed. */
export function claspPushForce(cwd: string): { status: number | null; output: string } {
  const run = spawnSync('clasp', ['push', '--force'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.stdout) process.stdout.write(run.stdout);
  if (run.stderr) process.stderr.write(run.stderr);
  if (run.error) process.stderr.write(`could not run clasp: ${run.error.message}\n`);
  return { status: run.error ? null : run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}
