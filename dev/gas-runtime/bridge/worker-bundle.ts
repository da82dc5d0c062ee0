import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));

let bundle: Promise<string> | undefined;

/** The worker's code, bundled once per process so the runtime runs under tsx, vitest or plain node. */
export function workerBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(here, '..', 'worker', 'entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bundle;
}
