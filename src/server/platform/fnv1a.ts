/** FNV-1a's offset basis (32 bits): the hash of no text, and the seed that starts one. */
export const FNV1A_OFFSET = 0x811c9dc5;

/** FNV-1a (32 bits) of a text, continued from `seed` to hash several texts as one. Pure. */
export function fnv1a(text: string, seed = FNV1A_OFFSET): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
