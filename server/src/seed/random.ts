/** mulberry32: tiny, fast and good enough for demo data; the same seed yields the same data. */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  /** `weights` maps each value to its relative frequency. */
  const weighted = <T extends string>(weights: Partial<Record<T, number>>): T => {
    const entries = Object.entries(weights) as [T, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  };
  const digits = (n: number) => Array.from({ length: n }, () => int(0, 9)).join('');
  const hex = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join('');
  /** A version-4-shaped UUID drawn from the seeded stream. */
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  const chance = (p: number) => next() < p;
  return { next, int, pick, weighted, digits, hex, uuid, chance };
}
export type Random = ReturnType<typeof createRandom>;
