/**
 * `npm run deploy:push`'s last step, after deploy:check and the build: pushes dist/ with
 * `clasp push --force` and fails unless clasp says it pushed. --force because the manifest is the
 * build's (dist/appsscript.json, from appsscript.json and the API base URL): without it clasp 3
 * skips a push whose manifest changed, and exits 0.
 */
import path from 'node:path';
import { claspPushForce, pushProblem } from './clasp';

const root = path.resolve(__dirname, '..');

console.log('clasp push --force (dist/, manifest included)');
const { status, output } = claspPushForce(root);
const problem = pushProblem(status, output);
if (problem) {
  console.error(`Deploy failed: ${problem}`);
  process.exit(1);
}
console.log(
  'Pushed: the Apps Script project now holds this build (its HEAD, which test deployments run; see docs/deploy.md for versions).',
);
