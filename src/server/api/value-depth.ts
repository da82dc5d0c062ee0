/**
 * How deep an API value is nested, measured without recursion. JSON.parse reads any depth, but every
 * recursive walk over the parsed value (JSON.stringify, String() or Date.parse of an array, a
 * comparison with `<`) overflows the call stack on a value nested some 10,000 deep: an answer is
 * measured with this before such a walk, on the sync (the record check) and the formula paths.
 */

/** Far deeper than any answer of the spec (an order is 3 levels deep); a text cell's JSON stays readable. */
export const MAX_VALUE_DEPTH = 32;

export function nestedDeeperThan(root: unknown, limit: number = MAX_VALUE_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const key of Object.keys(value))
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
  }
  return false;
}
