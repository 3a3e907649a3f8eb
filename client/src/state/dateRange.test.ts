import { describe, expect, it } from 'vitest';
import { matchPreset, presetRange, rangeDays, todayIn } from './dateRangePresets.ts';
import { useDateRange } from './dateRangeStore.ts';

describe('date range presets', () => {
  const today = '2025-03-05';

  it('last 7 days is the default range: 7 days including today, by day', () => {
    const r = presetRange('last7', today);
    expect(r).toEqual({ startDay: '2025-02-27', endDay: today, timeGroup: 'day' });
    expect(rangeDays(r)).toBe(7);
  });

  it('computes calendar presets across month boundaries', () => {
    expect(presetRange('thisMonth', today)).toMatchObject({ startDay: '2025-03-01', endDay: today });
    expect(presetRange('lastMonth', today)).toMatchObject({ startDay: '2025-02-01', endDay: '2025-02-28' });
    expect(presetRange('lastMonth', '2025-01-15')).toMatchObject({ startDay: '2024-12-01', endDay: '2024-12-31' });
    expect(presetRange('yesterday', '2025-03-01')).toMatchObject({ startDay: '2025-02-28', endDay: '2025-02-28' });
    expect(rangeDays(presetRange('last30', today))).toBe(30);
    expect(rangeDays(presetRange('last90', today))).toBe(90);
  });

  it('recognises a preset and leaves custom ranges unmatched', () => {
    expect(matchPreset(presetRange('last14', today, 'week'), today)).toBe('last14');
    expect(matchPreset({ startDay: '2025-01-02', endDay: '2025-01-09', timeGroup: 'day' }, today)).toBeUndefined();
  });

  it('computes today in a time zone', () => {
    const instant = new Date('2025-03-05T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2025-03-05');
    expect(todayIn('Asia/Tokyo', instant)).toBe('2025-03-06');
    expect(todayIn('America/Los_Angeles', instant)).toBe('2025-03-05');
    expect(todayIn('Not/AZone', instant)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('date range store', () => {
  it('notifies subscribers only when the range changes', () => {
    const seen: string[] = [];
    const unsubscribe = useDateRange.subscribe((s) => seen.push(`${s.range.startDay}..${s.range.endDay}/${s.range.timeGroup}`));
    const current = useDateRange.getState().range;
    useDateRange.getState().setRange({ ...current });
    expect(seen).toEqual([]);
    useDateRange.getState().setRange({ ...current, timeGroup: 'week' });
    expect(seen).toHaveLength(1);
    useDateRange.getState().setRange({ ...current, timeGroup: 'week' });
    expect(seen).toHaveLength(1);
    expect(useDateRange.getState().chosen).toBe(true);
    unsubscribe();
  });
});

describe('a range opened from a link', () => {
  it('is applied and counts as chosen, even when it equals the current range', () => {
    useDateRange.setState({ chosen: false });
    const current = useDateRange.getState().range;
    useDateRange.getState().openRange({ ...current });
    expect(useDateRange.getState()).toMatchObject({ range: current, chosen: true });
    useDateRange.getState().openRange({ startDay: '2026-01-01', endDay: '2026-01-31', timeGroup: 'week' });
    expect(useDateRange.getState().range).toEqual({ startDay: '2026-01-01', endDay: '2026-01-31', timeGroup: 'week' });
    // A chosen range no longer follows the app's "today".
    useDateRange.getState().followToday('UTC');
    expect(useDateRange.getState().range.startDay).toBe('2026-01-01');
  });
});
