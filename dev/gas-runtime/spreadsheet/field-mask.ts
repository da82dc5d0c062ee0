/**
 * Partial responses of Google APIs (the `fields` parameter): "a,b/c,d(e,f)", "*" for every field.
 * A selection applies through arrays to their elements; fields the mask does not name are left out.
 */

export type FieldTree = Map<string, FieldTree | true>;

export class FieldMaskError extends Error {}

/** Parses a mask such as "sheets(properties(sheetId,title),developerMetadata),properties.timeZone". */
export function parseFieldMask(mask: string): FieldTree {
  let at = 0;
  const fail = (): never => {
    throw new FieldMaskError(`Invalid field selection ${mask}`);
  };
  const name = (): string => {
    const m = /^[A-Za-z_*][A-Za-z0-9_]*/.exec(mask.slice(at));
    if (!m) fail();
    at += (m as RegExpExecArray)[0].length;
    return (m as RegExpExecArray)[0];
  };
  const merge = (tree: FieldTree, key: string, sub: FieldTree | true): void => {
    const had = tree.get(key);
    if (had === true || sub === true) tree.set(key, true);
    else if (had) for (const [k, v] of sub) merge(had, k, v);
    else tree.set(key, sub);
  };
  // One path "a/b.c(d,e)" into tree.
  const path = (tree: FieldTree): void => {
    const key = name();
    const c = mask[at];
    if (c === '/' || c === '.') {
      at++;
      const sub: FieldTree = new Map();
      path(sub);
      merge(tree, key, sub);
    } else if (c === '(') {
      at++;
      const sub = list(')');
      merge(tree, key, sub);
    } else merge(tree, key, true);
  };
  const list = (end: string): FieldTree => {
    const tree: FieldTree = new Map();
    for (;;) {
      while (mask[at] === ' ') at++;
      path(tree);
      while (mask[at] === ' ') at++;
      if (mask[at] === ',') {
        at++;
        continue;
      }
      if (end === ')' && mask[at] === ')') {
        at++;
        return tree;
      }
      if (end === '' && at === mask.length) return tree;
      return fail();
    }
  };
  if (mask.trim() === '') fail();
  return list('');
}

/** The parts of `value` the tree selects (arrays: each element); empty objects and arrays are dropped. */
export function applyFieldMask(value: unknown, tree: FieldTree | true): unknown {
  if (tree === true || tree.has('*')) return value;
  if (Array.isArray(value)) return value.map((v) => applyFieldMask(v, tree));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    out[key] = applyFieldMask(v, sub);
  }
  return out;
}
