/**
 * Per-app-key rate limit: a token bucket per key in this process (requests per second with a
 * burst). With N API processes behind a balancer the effective limit is N times this; a shared
 * limit would move the bucket to Redis. Idle buckets are forgotten so the map stays small.
 *
 * Requests with a missing or unknown key are limited per client address (UNKNOWN_KEY_LIMIT), so
 * guessing keys is slow and every guess is not a database lookup.
 */
export const UNKNOWN_KEY_LIMIT = { perSecond: 2, burst: 20 } as const;
export interface RateLimit { perSecond: number; burst: number }

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    this.limit = limit;
    this.now = now;
  }

  /** Takes a token for `key`: 0 when allowed, else the seconds to wait before one is available. */
  take(key: string): number {
    const bucket = this.refill(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return this.waitFor(bucket);
  }

  /** Like `take`, without taking: 0 when a token is there, else the seconds to wait. */
  peek(key: string): number {
    const bucket = this.refill(key);
    return bucket.tokens >= 1 ? 0 : this.waitFor(bucket);
  }

  private refill(key: string): { tokens: number; at: number } {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.sweep(now);
    return bucket;
  }

  private waitFor(bucket: { tokens: number }): number {
    return Math.ceil((1 - bucket.tokens) / this.limit.perSecond);
  }

  private sweep(now: number): void {
    for (const [key, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(key);
  }
}
