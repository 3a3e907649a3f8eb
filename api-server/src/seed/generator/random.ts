/**
 * Deterministic randomness for the behaviour generator: sfc32 (Small Fast Counter, from
 * PractRand; 128-bit state, passes BigCrush) seeded through splitmix32. Each person gets a stream
 * of their own, derived from (seed, person index), so a person's data does not depend on how many
 * people come before them or on the order they are consumed in.
 */

/** splitmix32 step: a well-mixed 32-bit value from a 32-bit input. */
export function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export interface Weighted<T> { readonly value: T; readonly weight: number }

/** A cumulative table for weighted picks, built once per list. */
export class WeightedList<T> {
  readonly values: readonly T[];
  private readonly cumulative: Float64Array;

  constructor(entries: readonly Weighted<T>[]) {
    if (entries.length === 0) throw new Error('a weighted list needs at least one entry');
    this.values = entries.map((e) => e.value);
    let total = 0;
    const sums = entries.map((e) => (total += e.weight));
    this.cumulative = Float64Array.from(sums, (s) => s / total);
  }

  /** The entry at `u` in [0, 1). */
  at(u: number): T {
    let lo = 0, hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (u < (this.cumulative[mid] ?? 1)) hi = mid;
      else lo = mid + 1;
    }
    const value = this.values[lo];
    if (value === undefined) throw new Error('weighted pick out of range');
    return value;
  }
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream for `seed`, optionally split by a stream number (a person index). */
  constructor(seed: number, stream = 0) {
    this.a = mix32(seed);
    this.b = mix32(this.a ^ stream);
    this.c = mix32(this.b + 0x6d2b79f5);
    this.d = mix32(this.c ^ 0x1b873593);
    for (let i = 0; i < 12; i++) this.next32();
  }

  next32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.next32() / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: WeightedList<T>): T {
    return list.at(this.next());
  }

  oneOf<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('oneOf needs a non-empty list');
    return item;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with median 1 and the given spread of its log. */
  logNormal(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  /** Poisson by inversion (small means only: the generator's means stay under 10). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0, p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** Failures before the first success of probability `p` (0, 1, 2, ...). */
  geometric(p: number): number {
    return Math.floor(Math.log(1 - this.next()) / Math.log(1 - p));
  }

  /** A random RFC 4122 version 4 UUID in upper case (the form advertising ids take). */
  uuid(): string {
    const hex = (n: number) => n.toString(16).padStart(8, '0');
    const s = hex(this.next32()) + hex(this.next32()) + hex(this.next32()) + hex(this.next32());
    const variant = ((parseInt(s.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20, 32)}`.toUpperCase();
  }
}
