/** Seeded PRNG (sfc32 seeded through splitmix32): the same seed gives the same data on every machine. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.float();
  }

  /** Uniform in [0, 1). */
  float(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.float() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /** Lower-case base-32 characters, for the random tail of ids. */
  token(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += CROCKFORD[Math.floor(this.float() * 32)];
    return out;
  }
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Sortable id: prefix + 10 base-32 chars of the creation instant + a random tail, so id order is creation order. */
export function sortableId(prefix: string, createdMs: number, random: SeededRandom, tailLength = 6): string {
  let time = '';
  let v = Math.max(0, Math.floor(createdMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[v % 32] + time;
    v = Math.floor(v / 32);
  }
  return `${prefix}${time}${random.token(tailLength)}`;
}
