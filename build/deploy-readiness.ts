/**
 * What `npm run deploy` needs before it spends minutes on lint and tests: a real Apps Script
 * project in .clasp.json, a real API base URL, and a clasp login. Pure: the caller reads the files.
 */
import type { ClaspLogin } from './clasp';
import { normaliseBaseUrl } from './manifest';

export interface DeployInputs {
  /** The text of .clasp.json, or null when the file is missing. */
  claspJson: string | null;
  /** The text of deploy.config.json, or null when the file is missing. */
  deployConfigJson: string | null;
  /** MA_API_BASE_URL from the environment, which the build prefers to deploy.config.json. */
  apiBaseUrlOverride?: string;
  /** What clasp says about its login (`npx clasp login` makes it 'logged-in'). */
  claspLogin: ClaspLogin;
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function scriptIdProblem(claspJson: string | null): string | null {
  if (claspJson === null)
    return '.clasp.json is missing: create it with {"scriptId": "<your Apps Script project id>", "rootDir": "dist"}.';
  const clasp = parsed(claspJson);
  if (!clasp) return '.clasp.json is not a JSON object.';
  const id = typeof clasp.scriptId === 'string' ? clasp.scriptId.trim() : '';
  if (!id || id.startsWith('REPLACE_')) {
    return '.clasp.json has no script id yet: put your Apps Script project id (Project Settings → IDs → Script ID) in "scriptId".';
  }
  if (clasp.rootDir !== 'dist') return '.clasp.json must say "rootDir": "dist" (the build output is what gets pushed).';
  return null;
}

/** RFC 2606 names (.example, example.com/.net/.org): the committed value is one, a placeholder, not an API. */
function isReservedExampleHost(host: string): boolean {
  return ['example', 'example.com', 'example.net', 'example.org'].some(
    (name) => host === name || host.endsWith(`.${name}`),
  );
}

function apiBaseUrlProblem(deployConfigJson: string | null, override: string | undefined): string | null {
  let raw = override;
  if (raw === undefined) {
    if (deployConfigJson === null) return 'deploy.config.json is missing: it names the API base URL ("apiBaseUrl").';
    const value = parsed(deployConfigJson)?.apiBaseUrl;
    if (typeof value !== 'string') return 'deploy.config.json has no "apiBaseUrl".';
    raw = value;
  }
  let url: string;
  try {
    url = normaliseBaseUrl(raw);
  } catch (e) {
    return (e as Error).message;
  }
  if (isReservedExampleHost(new URL(url).hostname)) {
    return `the API base URL is still the placeholder ${url}: put the real one in deploy.config.json ("apiBaseUrl") or MA_API_BASE_URL.`;
  }
  return null;
}

/** Every reason the deploy cannot succeed yet, each with what to do; empty when it can go ahead. */
export function deployProblems(inputs: DeployInputs): string[] {
  const problems = [
    scriptIdProblem(inputs.claspJson),
    apiBaseUrlProblem(inputs.deployConfigJson, inputs.apiBaseUrlOverride),
  ];
  if (inputs.claspLogin === 'logged-out')
    problems.push('clasp is not logged in: run `npx clasp login` once (it opens Google sign-in).');
  if (inputs.claspLogin === 'unknown') {
    problems.push(
      'clasp could not say whether it is logged in (`npx clasp show-authorized-user --json` failed): run that to see why, or `npx clasp login` again.',
    );
  }
  return problems.filter((p): p is string => p !== null);
}
