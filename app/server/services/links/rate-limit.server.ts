/**
 * Tries at patients' links, limited in this process's memory (docs/decisions/057-patient-links.md): per
 * address (wrong tokens and codes) and per link (openings). The product has no other request limits to
 * share a store with; with two copies of the server each keeps its own count, which doubles what one
 * address may try — still nothing against a 256-bit token or a 70-bit code (the decision's threat model).
 */
export interface Limit {
  /** Tries allowed in a window. */
  max: number;
  windowMs: number;
}

export const LIMITS = {
  /** Wrong tokens or codes from one address. */
  address: { max: 20, windowMs: 15 * 60 * 1000 },
  /** Openings of one link (by its address or its code). */
  link: { max: 30, windowMs: 15 * 60 * 1000 },
} satisfies Record<string, Limit>;

const MAX_KEYS = 50_000;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly limit: Limit) {}

  private recent(key: string, now: number): number[] {
    const since = now - this.limit.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  /** Whether the key has used up its tries. */
  blocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.limit.max;
  }

  /** Counts a try. */
  hit(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    if (!this.hits.has(key) && this.hits.size >= MAX_KEYS) this.hits.delete(this.hits.keys().next().value!);
    list.push(now);
    this.hits.set(key, list);
  }

  clear(): void {
    this.hits.clear();
  }
}

export const addressTries = new RateLimiter(LIMITS.address);
export const linkOpenings = new RateLimiter(LIMITS.link);
