import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { truncateLabel } from '../language.ts';
import {
  DASHBOARD_COLUMNS, NewWidget, Widget, clampPlacement, overlaps, placeNew, resolveCollisions, variation, windowRanges, withoutRange, type WidgetPlacement,
} from './model.ts';

const arbPlacement = fc.record({
  id: fc.string({ minLength: 1, maxLength: 6 }).map((s) => `w${s.replace(/[^A-Za-z0-9]/g, 'x')}`),
  x: fc.integer({ min: 0, max: DASHBOARD_COLUMNS - 1 }),
  y: fc.integer({ min: 0, max: 30 }),
  w: fc.integer({ min: 2, max: DASHBOARD_COLUMNS }),
  h: fc.integer({ min: 2, max: 8 }),
});
const arbLayout = fc.uniqueArray(arbPlacement, { selector: (p) => p.id, maxLength: 12 });
const noOverlaps = (ps: readonly WidgetPlacement[]) => ps.every((a, i) => ps.every((b, j) => i === j || !overlaps(a, b)));

describe('placing a new widget', () => {
  it('goes to the top-left on an empty dashboard', () => {
    expect(placeNew([], { w: 6, h: 7 })).toEqual({ x: 0, y: 0, w: 6, h: 7 });
  });

  it('fills the free place beside a widget before starting a new row', () => {
    expect(placeNew([{ x: 0, y: 0, w: 6, h: 7 }], { w: 6, h: 7 })).toEqual({ x: 6, y: 0, w: 6, h: 7 });
    expect(placeNew([{ x: 0, y: 0, w: 6, h: 7 }, { x: 6, y: 0, w: 6, h: 7 }], { w: 3, h: 3 })).toEqual({ x: 0, y: 7, w: 3, h: 3 });
  });

  it('uses a hole left between widgets', () => {
    const placed = [{ x: 0, y: 0, w: 3, h: 3 }, { x: 6, y: 0, w: 6, h: 3 }];
    expect(placeNew(placed, { w: 3, h: 3 })).toEqual({ x: 3, y: 0, w: 3, h: 3 });
  });

  it('never overlaps what is there and stays inside the grid (property)', () => {
    fc.assert(fc.property(arbLayout, fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 8 }), (layout, w, h) => {
      const resolved = resolveCollisions(layout);
      const place = placeNew(resolved, { w, h });
      expect(place.x + place.w).toBeLessThanOrEqual(DASHBOARD_COLUMNS);
      expect(resolved.some((p) => overlaps(p, place))).toBe(false);
    }));
  });
});

describe('collisions', () => {
  it('pushes the later widget (reading order) below the one it overlaps', () => {
    const out = resolveCollisions([{ id: 'b', x: 2, y: 1, w: 4, h: 3 }, { id: 'a', x: 0, y: 0, w: 4, h: 4 }]);
    expect(out).toEqual([{ id: 'a', x: 0, y: 0, w: 4, h: 4 }, { id: 'b', x: 2, y: 4, w: 4, h: 3 }]);
  });

  it('keeps widgets that do not overlap where they are', () => {
    const layout = [{ id: 'a', x: 0, y: 0, w: 6, h: 3 }, { id: 'b', x: 6, y: 0, w: 6, h: 3 }, { id: 'c', x: 0, y: 3, w: 12, h: 2 }];
    expect(resolveCollisions(layout)).toEqual(layout);
  });

  it('two widgets at the same place: the smaller id stays, the other goes below', () => {
    const out = resolveCollisions([{ id: 'z', x: 0, y: 0, w: 6, h: 3 }, { id: 'm', x: 0, y: 0, w: 6, h: 3 }]);
    expect(out.map((p) => [p.id, p.y])).toEqual([['m', 0], ['z', 3]]);
  });

  it('leaves no overlap, keeps every widget and its size, never moves one up, and is the same whatever the input order (property)', () => {
    fc.assert(fc.property(arbLayout, fc.func(fc.integer()), (layout, key) => {
      const out = resolveCollisions(layout);
      expect(noOverlaps(out)).toBe(true);
      expect(out.map((p) => p.id).sort()).toEqual(layout.map((p) => p.id).sort());
      for (const p of out) {
        const before = layout.find((q) => q.id === p.id)!;
        const clamped = clampPlacement(before);
        expect([p.w, p.h, p.x]).toEqual([clamped.w, clamped.h, clamped.x]);
        expect(p.y).toBeGreaterThanOrEqual(clamped.y);
      }
      const shuffled = [...layout].sort((a, b) => key(a.id) - key(b.id));
      expect(resolveCollisions(shuffled)).toEqual(out);
      expect(resolveCollisions(out)).toEqual(out);
    }));
  });

  it('clamps a widget to the grid: too wide, too far right, negative', () => {
    expect(clampPlacement({ x: 10, y: -2, w: 20, h: 1 })).toEqual({ x: 0, y: 0, w: 12, h: 2 });
    expect(clampPlacement({ x: 11, y: 0, w: 4, h: 3 })).toEqual({ x: 8, y: 0, w: 4, h: 3 });
  });
});

describe('the window', () => {
  it('day: today against yesterday, by hour', () => {
    expect(windowRanges('day', '2026-03-01')).toEqual({ current: { startDay: '2026-03-01', endDay: '2026-03-01' }, previous: { startDay: '2026-02-28', endDay: '2026-02-28' }, timeGroup: 'hour' });
  });

  it('week: Monday to today against last Monday to the same weekday', () => {
    // 2026-11-25 is a Wednesday.
    expect(windowRanges('week', '2026-11-25')).toEqual({ current: { startDay: '2026-11-23', endDay: '2026-11-25' }, previous: { startDay: '2026-11-16', endDay: '2026-11-18' }, timeGroup: 'day' });
    // A Monday: one day; a Sunday: the whole week.
    expect(windowRanges('week', '2026-11-23').current).toEqual({ startDay: '2026-11-23', endDay: '2026-11-23' });
    expect(windowRanges('week', '2026-11-29').current).toEqual({ startDay: '2026-11-23', endDay: '2026-11-29' });
  });

  it('month: the 1st to today against the same days of last month, clipped to its end, across a year', () => {
    expect(windowRanges('month', '2026-03-31')).toEqual({ current: { startDay: '2026-03-01', endDay: '2026-03-31' }, previous: { startDay: '2026-02-01', endDay: '2026-02-28' }, timeGroup: 'day' });
    expect(windowRanges('month', '2026-01-15').previous).toEqual({ startDay: '2025-12-01', endDay: '2025-12-15' });
    expect(windowRanges('month', '2024-03-30').previous).toEqual({ startDay: '2024-02-01', endDay: '2024-02-29' });
  });

  it('previous never reaches the current window and is never longer (property)', () => {
    const arbDay = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(fc.property(arbDay, fc.constantFrom<'day' | 'week' | 'month'>('day', 'week', 'month'), (today, win) => {
      const r = windowRanges(win, today);
      expect(r.current.endDay).toBe(today);
      expect(r.previous.endDay < r.current.startDay).toBe(true);
      const len = (x: { startDay: string; endDay: string }) => Date.parse(x.endDay) - Date.parse(x.startDay);
      expect(len(r.previous)).toBeLessThanOrEqual(len(r.current));
    }));
  });
});

describe('widgets', () => {
  it('parse per kind: explore and KPI queries are checked, funnel and cohort kept as given', () => {
    const base = { id: 'w1', title: 'Sales', x: 0, y: 0, w: 6, h: 7 };
    expect(Widget.safeParse({ ...base, kind: 'explore', query: { event: 'purchase', metric: 'revenue' } }).success).toBe(true);
    expect(Widget.safeParse({ ...base, kind: 'explore', query: { event: 'purchase', breakdown: 'property' } }).success).toBe(false);
    expect(Widget.safeParse({ ...base, kind: 'kpi', query: { event: '' } }).success).toBe(false);
    expect(Widget.safeParse({ ...base, kind: 'funnel', query: { steps: [] } }).success).toBe(true);
    expect(Widget.safeParse({ ...base, kind: 'chart', query: {} }).success).toBe(false);
    expect(NewWidget.safeParse({ kind: 'kpi', title: ' ', query: { event: 'x' } }).success).toBe(false);
  });

  it('a query loses the range fields the dashboard supplies', () => {
    expect(withoutRange({ startDay: '2026-01-01', endDay: '2026-01-02', timeGroup: 'day', compare: true, event: 'a' })).toEqual({ event: 'a' });
    expect(withoutRange(null)).toEqual({});
  });

  it('variation is relative to the previous period, none without one', () => {
    expect(variation(150, 100)).toBeCloseTo(0.5);
    expect(variation(50, 100)).toBeCloseTo(-0.5);
    expect(variation(5, 0)).toBeNull();
  });

  it('labels truncate at 50 characters with an ellipsis', () => {
    const long = 'x'.repeat(60);
    expect(truncateLabel(long)).toBe(`${'x'.repeat(50)}…`);
    expect(truncateLabel('x'.repeat(50))).toBe('x'.repeat(50));
  });
});
