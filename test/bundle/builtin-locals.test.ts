/**
 * The bundle reads no standard built-in as a global: in the runtime's vm context every global read
 * is an interceptor call (a C++ call V8 cannot optimize away), which per-cell and per-id loops paid
 * on every use (build/builtins.ts binds them as locals of the IIFE).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinsReadAsGlobals } from './builtin-locals';

const code = readFileSync(path.resolve(__dirname, '../../dist/Code.js'), 'utf8');
/** build/build.ts BUNDLE_NAMESPACE (importing it would run the build). */
const NAMESPACE = 'MerchantAnalyticsAddOn';

describe('dist/Code.js built-ins', () => {
  it('reads no standard built-in as a global inside its IIFE', () => {
    // Values, not objects: Infinity and NaN cost the same lookup but no loop reads them.
    expect(builtinsReadAsGlobals(code, NAMESPACE).filter((n) => n !== 'Infinity' && n !== 'NaN')).toEqual([]);
  });
});

describe('the built-ins check itself', () => {
  it('finds Math read inside the IIFE and accepts one bound at its top level', () => {
    const read = 'var A = (() => { function f(x) { return Math.imul(x, 3); } return { f }; })();';
    const bound =
      'var A = (() => { var Math = globalThis.Math; function f(x) { return Math.imul(x, 3); } return { f }; })();';
    expect(builtinsReadAsGlobals(read, 'A')).toEqual(['Math']);
    expect(builtinsReadAsGlobals(bound, 'A')).toEqual([]);
  });
});
