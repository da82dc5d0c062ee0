/**
 * `npm run deploy:check`, the first step of deploy and of deploy:push: refuses at once, with what to
 * do, when the deploy cannot succeed (placeholder script id or API base URL, no clasp login),
 * instead of after lint and the tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { askClaspLogin } from './clasp';
import { deployProblems } from './deploy-readiness';

const root = path.resolve(__dirname, '..');

function readIfPresent(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

const problems = deployProblems({
  claspJson: readIfPresent(path.join(root, '.clasp.json')),
  deployConfigJson: readIfPresent(path.join(root, 'deploy.config.json')),
  apiBaseUrlOverride: process.env.MA_API_BASE_URL,
  claspLogin: askClaspLogin(root),
});
if (problems.length > 0) {
  console.error(`Not deploying (nothing was pushed):\n  - ${problems.join('\n  - ')}\nSee docs/deploy.md.`);
  process.exit(1);
}
