import { describe, expect, it } from 'vitest';
import { Journey } from './model.ts';
import { DEFAULT_JOURNEY_SETTINGS, JourneySettings, settingsOf } from './settings.ts';
import { diffIsEmpty, diffJourneys, journeyFingerprint } from './review.ts';
import { normalizeJourney } from './normalize.ts';
import { fullJourney, sampleSegment } from './testing.ts';
import { validateJourney, validateJourneySettings } from './validate.ts';

const ctx = { messageExists: () => true };
const withSettings = (patch: Partial<JourneySettings>): JourneySettings => ({ ...structuredClone(DEFAULT_JOURNEY_SETTINGS), ...patch });

describe('journey settings', () => {
  it('defaults: never re-enter (7 days), no entry key, no exit, no goal (7 days)', () => {
    expect(DEFAULT_JOURNEY_SETTINGS).toEqual({
      reentry: { mode: 'never', periodSeconds: 604_800 },
      entryKey: null,
      exit: { eventIds: [], segment: null },
      goal: { eventId: null, windowSeconds: 604_800 },
    });
    expect(Object.isFrozen(DEFAULT_JOURNEY_SETTINGS.exit.eventIds)).toBe(true);
    expect(JourneySettings.parse(DEFAULT_JOURNEY_SETTINGS)).toEqual(DEFAULT_JOURNEY_SETTINGS);
  });

  it('a journey without settings is valid and runs with the defaults; one with settings keeps them', () => {
    const plain = fullJourney();
    expect(Journey.parse(plain)).toEqual(plain);
    expect(settingsOf(plain)).toBe(DEFAULT_JOURNEY_SETTINGS);
    const own = withSettings({ reentry: { mode: 'always', periodSeconds: 0 }, entryKey: 'orderId' });
    const j = { ...plain, settings: own };
    expect(Journey.parse(j).settings).toEqual(own);
    expect(settingsOf(j)).toBe(own);
    expect(Journey.safeParse({ ...plain, settings: { ...own, reentry: { mode: 'sometimes', periodSeconds: 1 } } }).success).toBe(false);
  });

  it('normalization keeps the settings, and they count in the fingerprint', async () => {
    const own = withSettings({ goal: { eventId: 'purchase', windowSeconds: 3600 } });
    const j = { ...fullJourney(), settings: own };
    expect(normalizeJourney(j).settings).toEqual(own);
    expect(normalizeJourney({ ...j, steps: j.steps.filter((s) => !s.auto) }).settings).toEqual(own);
    expect(await journeyFingerprint(j)).not.toBe(await journeyFingerprint(fullJourney()));
    expect(await journeyFingerprint(j)).toBe(await journeyFingerprint({ ...fullJourney(), settings: structuredClone(own) }));
  });

  it('validation: a period to re-enter after, a goal window, a valid exit segment', () => {
    expect(validateJourneySettings(undefined)).toEqual([]);
    expect(validateJourneySettings(DEFAULT_JOURNEY_SETTINGS)).toEqual([]);
    // A period of 0 is fine unless re-entry waits for it; a window of 0 is fine without a goal.
    expect(validateJourneySettings(withSettings({ reentry: { mode: 'always', periodSeconds: 0 }, goal: { eventId: null, windowSeconds: 0 } }))).toEqual([]);
    const bad = withSettings({
      reentry: { mode: 'afterPeriod', periodSeconds: 0 },
      goal: { eventId: 'purchase', windowSeconds: 0 },
      exit: { eventIds: ['unsubscribe'], segment: sampleSegment(false) },
    });
    expect(validateJourneySettings(bad)).toEqual([
      { stepId: null, path: ['settings', 'reentry', 'periodSeconds'], code: 'reentry_period_missing' },
      { stepId: null, path: ['settings', 'goal', 'windowSeconds'], code: 'goal_window_missing' },
      { stepId: null, path: ['settings', 'exit', 'segment'], code: 'exit_segment_invalid', params: { reason: expect.any(String) as string, key: 'c1' } },
    ]);
    expect(validateJourney({ ...fullJourney(), settings: bad }, ctx).map((v) => v.code)).toEqual(['reentry_period_missing', 'goal_window_missing', 'exit_segment_invalid']);
    expect(validateJourney({ ...fullJourney(), settings: withSettings({ exit: { eventIds: [], segment: sampleSegment(true) } }) }, ctx)).toEqual([]);
  });
});

describe('launch review of settings', () => {
  it('a change of settings is a change; defaults written out are none', () => {
    const base = fullJourney();
    expect(diffIsEmpty(diffJourneys(base, { ...base, settings: structuredClone(DEFAULT_JOURNEY_SETTINGS) }))).toBe(true);
    const d = diffJourneys(base, { ...base, settings: withSettings({ entryKey: 'orderId' }) });
    expect([d.added, d.removed, d.changed, d.relinked, d.settingsChanged]).toEqual([[], [], [], false, true]);
    expect(diffIsEmpty(d)).toBe(false);
  });
});
