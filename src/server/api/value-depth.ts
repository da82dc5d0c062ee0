/**
 * How deep an API value is nested, measured without recursion. JSON.parse reads any depth, but every
 * recursive walk over the parsed value (JSON.stringify, String() or Date.parse of an array, a
 * comparison with `<`) overflows the call stack on a value nested some 10,000 deep: an answer is
 * measured with this before such a walk, on the sync (the record check) and the formula paths.
 */

/** Far deeper than any answer of the spec (an order is 3 levels deep); a text cell's JSON stays readable. */
export const MAX_VALUE_DEPTH = 32;

export function nestedDeeperThan(root: unknown, limit: number = MAX_VALUE_DEPTH): boolean {
  // Objects only, their depths beside them: nothing allocated per value walked (every order is walked).
  const objects: object[] = [];
  const depths: number[] = [];
  if (root !== null && typeof root === 'object') {
    objects.push(root);
    depths.push(1);
  }
  while (objects.length > 0) {
    const value = objects.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        objects.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
