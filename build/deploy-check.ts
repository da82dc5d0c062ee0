/**
 * `npm run deploy` step 0: refuses at once, with what to do, when the deploy cannot succeed
 * (placeholder script id or API base URL, no clasp login), instead of after lint and the tests.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deployProblems } from './deploy-readiness';

const root = path.resolve(__dirname, '..');

function readIfPresent(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** clasp reads ~/.clasprc.json, or the file (or folder holding one) named by clasp_config_auth. */
function claspCredentialsFound(): boolean {
  const configured = process.env.clasp_config_auth;
  const candidate = configured ? path.resolve(configured) : path.join(os.homedir(), '.clasprc.json');
  if (!existsSync(candidate)) return false;
  return statSync(candidate).isDirectory() ? existsSync(path.join(candidate, '.clasprc.json')) : true;
}

const problems = deployProblems({
  claspJson: readIfPresent(path.join(root, '.clasp.json')),
  deployConfigJson: readIfPresent(path.join(root, 'deploy.config.json')),
  apiBaseUrlOverride: process.env.MA_API_BASE_URL,
  claspCredentialsFound: claspCredentialsFound(),
});
if (problems.length > 0) {
  console.error(`Not deploying (nothing was pushed):\n  - ${problems.join('\n  - ')}\nSee README, "Deploying to real Sheets".`);
  process.exit(1);
}
