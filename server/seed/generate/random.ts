/**
 * Deterministic randomness for the demo world. Every generated value comes
 * from a PRNG seeded by a fixed world seed plus a key naming what is being
 * generated ("statements:816051142"), so one company's figures do not shift
 * when another company is added to the sample, and two seeds give the same
 * world. Math.random is never used.
 */

export const WORLD_SEED = "supplier-risk-demo-world-v1";

/** 32-bit FNV-1a: stable across platforms, good enough to spread seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast and well distributed for non-cryptographic use. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(key: string) {
    this.next = mulberry32(hash32(`${WORLD_SEED}:${key}`));
  }

  /** [0, 1) */
  float(): number {
    return this.next();
  }

  /** [min, max) */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** Standard normal (Box–Muller). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Multiplicative noise around 1: exp(N(0, sd)). */
  logNormal(sd: number): number {
    return Math.exp(this.normal(0, sd));
  }

  /** k distinct items in random order (all of them when k >= length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }
}

export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** YYYY-MM-DD of a UTC date. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function daysBefore(today: Date, days: number): Date {
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - Math.round(days)));
}

export function daysAfter(date: Date, days: number): Date {
  return daysBefore(date, -days);
}

export function parseIsoDate(text: string | null | undefined): Date | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const d = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}
