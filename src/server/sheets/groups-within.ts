/**
 * Consecutive items cut into groups whose summed sizes stay within a budget: what every request
 * held to a limit (a URL's length, Google's recommended 2 MB body) is split by. An item over the
 * budget goes alone; no group is empty. Pure.
 */
export function groupsWithin<T>(items: readonly T[], sizeOf: (item: T) => number, budget: number): T[][] {
  const groups: T[][] = [];
  let group: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = sizeOf(item);
    if (group.length > 0 && size + itemSize > budget) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(item);
    size += itemSize;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}
