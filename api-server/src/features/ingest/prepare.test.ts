import { describe, expect, it } from 'vitest';
import { INGEST_LIMITS } from '@gd/shared';
import { activitySpan, earliestFor, prepareEvents, prepareInteractions } from './prepare.ts';
import { TokenBuckets } from './rateLimit.ts';

const now = new Date('2026-11-22T12:00:00Z');

describe('prepareEvents', () => {
  it('keeps the first of repeated ids and reports the rest as duplicates', () => {
    const e = { id: 'a', name: 'x', time: now.toISOString() };
    const out = prepareEvents([e, { ...e, name: 'y' }, { ...e, id: 'b' }], { now });
    expect(out.rows.map((r) => [r.clientId, r.name])).toEqual([['a', 'x'], ['b', 'x']]);
    expect(out.repeated).toEqual(['a']);
  });

  it('clamps only times beyond the tolerance, and reads epoch milliseconds', () => {
    const edge = now.getTime() + INGEST_LIMITS.futureToleranceMs;
    const out = prepareEvents([
      { id: 'edge', name: 'x', time: edge },
      { id: 'over', name: 'x', time: edge + 1 },
      { id: 'late', name: 'x', time: '2020-01-01T00:00:00+02:00' },
    ], { now });
    expect(out.rows.map((r) => r.time.toISOString())).toEqual([new Date(edge).toISOString(), now.toISOString(), '2019-12-31T22:00:00.000Z']);
    expect(out.clamped).toEqual([{ id: 'over', time: now.toISOString() }]);
  });

  it('refuses each bad event with its index, id and a reason naming the field', () => {
    const out = prepareEvents([null, { id: 'n', name: 'gd_nope', time: 1 }, { id: 'p', name: 'ok', time: 1, properties: { s: 'x'.repeat(INGEST_LIMITS.maxPropertiesBytes) } }], { now });
    expect(out.rejected.map((r) => [r.index, r.id])).toEqual([[0, null], [1, 'n'], [2, 'p']]);
    expect(out.rejected[1]?.reason).toMatch(/^name/);
    expect(out.rejected[2]?.reason).toMatch(/^properties/);
  });

  it('accepts the built-in events and the screen event', () => {
    const out = prepareEvents(['gd_install', 'gd_login2', 'e_screen_name'].map((name, i) => ({ id: String(i), name, time: 1 })), { now });
    expect(out.rejected).toEqual([]);
  });

  it('validates interactions on their own', () => {
    const out = prepareInteractions([{ id: 'i', time: 1, channel: 'inapp', kind: 'dismissed_click' }, { id: 'j', time: 1, channel: 'fax', kind: 'open' }], { now });
    expect(out.rows).toHaveLength(1);
    expect(out.rejected[0]?.reason).toMatch(/^channel/);
  });
});

describe('event times and storable text', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const earliest = earliestFor(new Date('2026-06-01T00:00:00Z'));
  it('refuses times earlier than two years before the app was created, on their own', () => {
    expect(earliest.toISOString()).toBe('2024-06-01T00:00:00.000Z');
    const out = prepareEvents([
      { id: 'old', name: 'x', time: '2024-05-31T23:59:59Z' }, { id: 'year999', name: 'x', time: '0999-01-01T00:00:00Z' },
      { id: 'epoch', name: 'x', time: 0 }, { id: 'ok', name: 'x', time: '2024-06-01T00:00:00Z' },
    ], { now, earliest });
    expect(out.rows.map((r) => r.clientId)).toEqual(['ok']);
    expect(out.rejected.map((r) => [r.id, r.code])).toEqual([['old', 10001], ['year999', 10001], ['epoch', 10001]]);
    expect(out.rejected[0]?.reason).toMatch(/^time: earlier than 2024-06-01/);
  });
  it.each([
    ['a NUL in the name', { name: 'a\u0000b' }], ['a lone high surrogate in a property value', { properties: { k: 'x\ud800' } }],
    ['a lone low surrogate in a property key', { properties: { ['k\udc00']: 1 } }], ['a NUL in a nested list value', { properties: { k: ['a', 'b\u0000'] } }],
    ['a NUL in the source', { source: 'ad\u0000net' }], ['a NUL in the id', { id: 'id\u0000' }],
  ])('refuses an event with %s, keeping the good ones', (_what, patch) => {
    const out = prepareEvents([{ id: 'good', name: 'x', time: now.toISOString() }, { id: 'bad', name: 'x', time: now.toISOString(), ...patch }], { now });
    expect(out.rows.map((r) => r.clientId)).toEqual(['good']);
    expect(out.rejected[0]?.reason).toMatch(/NUL character or an unpaired surrogate/);
  });
  it('keeps paired surrogates (emoji)', () => {
    const out = prepareEvents([{ id: 'e', name: 'x', time: now.toISOString(), properties: { mood: '😀' } }], { now });
    expect(out.rows).toHaveLength(1);
  });
});

describe('activitySpan (a device\'s first and last seen)', () => {
  it('spans the events\' own times in any order, not the arrival', () => {
    const out = prepareEvents([
      { id: 'b', name: 'x', time: '2026-11-20T08:00:00Z' }, { id: 'a', name: 'x', time: '2026-11-22T09:30:00Z' }, { id: 'c', name: 'x', time: '2025-01-02T00:00:00Z' },
    ], { now });
    expect(activitySpan(out.rows, now)).toEqual({ first: new Date('2025-01-02T00:00:00Z'), last: new Date('2026-11-22T09:30:00Z') });
  });

  it('never goes past the arrival: a fast clock within the tolerance, and clamped times, count as now', () => {
    const ahead = now.getTime() + INGEST_LIMITS.futureToleranceMs / 2;
    const withinTolerance = prepareEvents([{ id: 'soon', name: 'x', time: ahead }, { id: 'old', name: 'x', time: '2026-11-21T00:00:00Z' }], { now });
    expect(withinTolerance.rows[0]?.time.getTime()).toBe(ahead);
    expect(activitySpan(withinTolerance.rows, now)).toEqual({ first: new Date('2026-11-21T00:00:00Z'), last: now });
    const far = prepareEvents([{ id: 'far', name: 'x', time: now.getTime() + 3 * 86_400_000 }], { now });
    expect(activitySpan(far.rows, now)).toEqual({ first: now, last: now });
  });

  it('is null without events', () => {
    expect(activitySpan([], now)).toBeNull();
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
