/**
 * The add-on's Apps Script globals. This is the only file that exports: each export is a thin map
 * from a global name to a module function, and the build turns it into a top-level
 * `function NAME()` declaration in dist/Code.js carrying the JSDoc below (Sheets reads
 * `@customfunction` from there for autocomplete).
 */
