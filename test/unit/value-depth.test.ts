import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/server/api/value-depth';

/** An array nested `depth` levels deep (depth 1: a flat array), a primitive at the bottom. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('nestedDeeperThan', () => {
  it('counts the root as level 1 and primitives as no level', () => {
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(null, 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
  });

  it('finds the one deep branch among shallow ones, without overflowing the stack', () => {
    const order = { id: 'ord_1', line_items: [{ id: 'li_1', tags: ['a'] }], economics: { net: 1 } };
    expect(nestedDeeperThan(order, 4)).toBe(false);
    expect(nestedDeeperThan(order, 3)).toBe(true);
    expect(nestedDeeperThan({ ...order, note: nested(31) }, 32)).toBe(false);
    expect(nestedDeeperThan({ ...order, note: nested(32) }, 32)).toBe(true);
    expect(nestedDeeperThan(nested(100_000))).toBe(true);
  });
});
