import { describe, expect, it } from 'vitest';
import { normalizeJourney } from './normalize.ts';
import { journeyReferences, referenceViolations } from './references.ts';
import { DEFAULT_JOURNEY_SETTINGS } from './settings.ts';
import { journey, linked } from './testing.ts';

const j = normalizeJourney(
  journey(
    's',
    linked('sourceEvents', 's', 'ev', { eventIds: ['purchase', 'gd_install', 'never_sent', 'e_screen_name'] }),
    linked('flowEvent', 'ev', [null, null], { paths: [{ id: 'p1', name: '', next: null, eventId: 'ghost' }, { id: 'p2', name: '', next: null }] }),
  ),
);

describe('journey references', () => {
  it('lists the custom events and audiences a journey names (built-in and screen events always exist)', () => {
    expect(journeyReferences(j)).toEqual({ audienceIds: [], eventNames: ['purchase', 'never_sent', 'ghost'] });
  });

  it('reports each missing one on its step and field, and nothing when all exist', () => {
    const known = new Set(['purchase']);
    expect(referenceViolations(j, { audienceExists: () => true, eventExists: (n) => known.has(n) })).toEqual([
      { stepId: 's', path: ['eventIds'], code: 'event_not_found', params: { name: 'never_sent' } },
      { stepId: 'ev', path: ['paths', 0, 'eventId'], code: 'event_not_found', params: { name: 'ghost' } },
    ]);
    expect(referenceViolations(j, { audienceExists: () => true, eventExists: () => true })).toEqual([]);
    const onAudience = normalizeJourney(journey('s', linked('sourceAudience', 's', null, { audienceId: 'Android' })));
    expect(referenceViolations(onAudience, { audienceExists: () => false, eventExists: () => true })).toEqual([{ stepId: 's', path: ['audienceId'], code: 'audience_not_found', params: { id: 'Android' } }]);
  });

  it('checks the events its settings name (exit criteria, conversion goal), as problems of the settings', () => {
    const withSettings = { ...j, settings: { ...DEFAULT_JOURNEY_SETTINGS, exit: { eventIds: ['purchase', 'unsubscribed_ghost', 'gd_uninstall'], segment: null }, goal: { eventId: 'ordered_ghost', windowSeconds: 3600 } } };
    expect(journeyReferences(withSettings).eventNames).toEqual(['purchase', 'never_sent', 'ghost', 'unsubscribed_ghost', 'ordered_ghost']);
    const known = new Set(['purchase', 'never_sent', 'ghost']);
    expect(referenceViolations(withSettings, { audienceExists: () => true, eventExists: (n) => known.has(n) })).toEqual([
      { stepId: null, path: ['settings', 'exit', 'eventIds', 1], code: 'event_not_found', params: { name: 'unsubscribed_ghost' } },
      { stepId: null, path: ['settings', 'goal', 'eventId'], code: 'event_not_found', params: { name: 'ordered_ghost' } },
    ]);
  });
});
