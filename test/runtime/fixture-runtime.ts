import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type GasRuntime, type RuntimeOptions } from '../../dev/gas-runtime/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BASIC_DIST = path.join(here, 'fixtures', 'basic');
export const LIBRARY_DIST = path.join(here, 'fixtures', 'library');

/** A runtime over the basic fixture bundle (Code.js + appsscript.json + html files). */
export function basicRuntime(options: Partial<RuntimeOptions> = {}): Promise<GasRuntime> {
  return createRuntime({ distDir: BASIC_DIST, user: { email: 'finance@example.com' }, ...options });
}

/** Converts hex to the signed bytes Apps Script returns (-128..127). */
export function signedBytesOfHex(hex: string): number[] {
  return (hex.match(/../g) ?? []).map((h) => {
    const b = parseInt(h, 16);
    return b > 127 ? b - 256 : b;
  });
}
