import vm from 'node:vm';
import type { LibraryCode } from '../bridge/protocol.js';

/**
 * A library's namespace, read from its context after its code ran. A plain .gs library declares
 * its API at top level (`function createService…`): those names. A bundled one, such as
 * apps-script-oauth2's dist/OAuth2.gs, wraps everything in a function and puts one object on its
 * global object (`(function (host, expose) {…}).call(this, this, "OAuth2")` sets `this.OAuth2`);
 * declaring nothing at top level, its namespace is that object, whatever its name.
 */
export function libraryNamespace(
  library: LibraryCode,
  context: vm.Context,
  globalsBefore: ReadonlySet<string>,
): unknown {
  if (library.exportNames.length > 0) {
    const listing = library.exportNames
      .map((n) => `${JSON.stringify(n)}: typeof ${n} === 'undefined' ? undefined : ${n}`)
      .join(', ');
    return vm.runInContext(`({ ${listing} })`, context);
  }
  const added = Object.getOwnPropertyNames(context).filter((name) => !globalsBefore.has(name));
  const exposed = added.filter((name) => {
    const value: unknown = context[name];
    return value !== null && typeof value === 'object';
  });
  if (exposed.length !== 1) {
    const found = exposed.length === 0 ? 'none' : exposed.join(', ');
    throw new Error(
      `Library ${library.userSymbol} (${library.filename}) declares nothing at top level and must then put exactly one object on its global object; found ${found}`,
    );
  }
  return context[exposed[0]!];
}
