import { describe, expect, it } from 'vitest';
import { INGEST_LIMITS } from '@gd/shared';
import { monthsOf, prepareEvents, prepareInteractions } from './prepare.ts';
import { TokenBuckets } from './rateLimit.ts';

const now = new Date('2026-11-22T12:00:00Z');

describe('prepareEvents', () => {
  it('keeps the first of repeated ids and reports the rest as duplicates', () => {
    const e = { id: 'a', name: 'x', time: now.toISOString() };
    const out = prepareEvents([e, { ...e, name: 'y' }, { ...e, id: 'b' }], now);
    expect(out.rows.map((r) => [r.clientId, r.name])).toEqual([['a', 'x'], ['b', 'x']]);
    expect(out.repeated).toEqual(['a']);
  });

  it('clamps only times beyond the tolerance, and reads epoch milliseconds', () => {
    const edge = now.getTime() + INGEST_LIMITS.futureToleranceMs;
    const out = prepareEvents([
      { id: 'edge', name: 'x', time: edge },
      { id: 'over', name: 'x', time: edge + 1 },
      { id: 'late', name: 'x', time: '2020-01-01T00:00:00+02:00' },
    ], now);
    expect(out.rows.map((r) => r.time.toISOString())).toEqual([new Date(edge).toISOString(), now.toISOString(), '2019-12-31T22:00:00.000Z']);
    expect(out.clamped).toEqual([{ id: 'over', time: now.toISOString() }]);
  });

  it('refuses each bad event with its index, id and a reason naming the field', () => {
    const out = prepareEvents([null, { id: 'n', name: 'gd_nope', time: 1 }, { id: 'p', name: 'ok', time: 1, properties: { s: 'x'.repeat(INGEST_LIMITS.maxPropertiesBytes) } }], now);
    expect(out.rejected.map((r) => [r.index, r.id])).toEqual([[0, null], [1, 'n'], [2, 'p']]);
    expect(out.rejected[1]?.reason).toMatch(/^name/);
    expect(out.rejected[2]?.reason).toMatch(/^properties/);
  });

  it('accepts the built-in events and the screen event', () => {
    const out = prepareEvents(['gd_install', 'gd_login2', 'e_screen_name'].map((name, i) => ({ id: String(i), name, time: 1 })), now);
    expect(out.rejected).toEqual([]);
  });

  it('validates interactions on their own', () => {
    const out = prepareInteractions([{ id: 'i', time: 1, channel: 'inapp', kind: 'dismissed_click' }, { id: 'j', time: 1, channel: 'fax', kind: 'open' }], now);
    expect(out.rows).toHaveLength(1);
    expect(out.rejected[0]?.reason).toMatch(/^channel/);
  });
});

describe('monthsOf', () => {
  it('lists the UTC months once, in order', () => {
    expect(monthsOf([new Date('2026-03-31T23:59:59Z'), new Date('2026-01-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z')])).toEqual(['2026-01', '2026-03']);
  });
});

describe('TokenBuckets', () => {
  it('allows the burst, then one request per refill interval, per key', () => {
    let t = 0;
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 }, () => t);
    expect([1, 2, 3, 4].map(() => buckets.take('k'))).toEqual([0, 0, 0, 1]);
    expect(buckets.take('other')).toBe(0);
    t = 500;
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBe(1);
  });
});
