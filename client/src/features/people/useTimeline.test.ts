import { describe, expect, it } from 'vitest';
import { timelineReducer, type TimelineState } from './useTimeline.ts';

describe('the timeline state', () => {
  const ev = (id: string) => ({ id, name: 'x', time: '2026-01-01T00:00:00.000Z', receivedAt: '2026-01-01T00:00:00.000Z', properties: {}, revenue: null, currency: null, source: null, campaign: null, sessionId: null, deviceId: '1', os: null, appVersion: null, country: null });
  const start: TimelineState = { events: [], next: null, initial: true, loading: true, error: undefined };

  it('appends pages in order, never twice, and keeps what it had on a failure', () => {
    let s = timelineReducer(start, { type: 'page', events: [ev('a'), ev('b')], next: 'c1' });
    expect(s).toMatchObject({ initial: false, loading: false, next: 'c1' });
    s = timelineReducer(timelineReducer(s, { type: 'start' }), { type: 'page', events: [ev('b'), ev('c')], next: null });
    expect(s.events.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    const failed = timelineReducer(timelineReducer(s, { type: 'start' }), { type: 'failed', error: new Error('x') });
    expect(failed.events).toHaveLength(3);
    expect(failed.loading).toBe(false);
    expect(timelineReducer(failed, { type: 'reset' })).toEqual(start);
  });
});
